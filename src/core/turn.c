/* turn.c — the turn pipeline as one table of steps, read top to bottom like the rulebook:
 * finish what a crash left, load the state, check the orders, derive the seed, play the
 * umpire's rulings and the rule system's phases, render the files, build the commit, journal
 * it, publish it. Commands run slices of the table (turn_run); the journal is the point of
 * no return (docs/design.md, crash safety). Here: the table, its slices, the set-up and the
 * randomness..resolve steps; the others are in turn_recover.c, turn_orders.c, turn_commit.c. */
#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/beacon.h"
#include "core/turn.h"
#include "core/turn_int.h"
#include "core/timelock.h"
#include "core/end.h"
#include "core/audit.h"
#include "core/durable.h"
#include "core/file.h"
#include "core/layout.h"
#include "core/missed.h"
#include "core/orders.h"
#include "core/receipt.h"
#include "core/render.h"
#include "core/when.h"
#include "core/banned.h"

static int step_randomness(struct turn *t);
static int step_seed(struct turn *t);
static int step_rulings(struct turn *t);
static int step_resolve(struct turn *t);

/* The life of a turn. `check` runs load..orders, `close` recover..close, `turn`
 * recover..publish, `replay` and `verify` closed..render on each journaled turn; the setup
 * runs build..publish. */
static const struct turn_step steps[] = {
	{ "recover", "finish a turn a crash left half-done; notice a re-run of the last turn",
		step_recover },
	{ "load", "the state at the committed HEAD; the number of the next turn", step_load },
	{ "closed",
		"a closed turn: what its close fixed, and the files it kept when none are given",
		step_closed },
	{ "orders", "read and check every order file; every due player has one", step_orders },
	{ "close",
		"close: fix D_t, every file hash and the randomness to come (tag close-NNNN); "
		"a closed turn: its inputs are exactly those",
		step_close },
	{ "randomness", "B_t: the beacon round the close named, or the players' reveals",
		step_randomness },
	{ "seed", "turn key, orders digest and turn seed (docs/fairness.md)", step_seed },
	{ "rulings", "the umpire's dice rulings, then its adjustments, before the rules",
		step_rulings },
	{ "resolve", "the rule system's phases, every die from the dice service", step_resolve },
	{ "render", "state.yaml, the journal export and each player's report", step_render },
	{ "reread",
		"the state as the next turn will load it, and each due player's orders on it; "
		"refused, it is the rule system's bug",
		step_reread },
	{ "seal",
		"sealed: the whole state, the withheld files and salts into .umpire/sealed/, each "
		"player's report, view and salt into his outbox (before the journal)",
		step_seal },
	{ "build", "the git objects of the turn's commit, no ref moved", step_build },
	{ "journal", "one journal transaction: every row, the files and the commit id",
		step_journal },
	{ "publish", "work tree, index, main (compare-and-swap) and the turn's tag", step_publish },
	{ NULL, NULL, NULL },
};

const struct turn_step *turn_steps(void)
{
	return steps;
}

static int step_index(const char *name)
{
	for (int i = 0; steps[i].run; i++)
		if (strcmp(steps[i].name, name) == 0)
			return i;
	return -1;
}

int turn_run(struct turn *t, const char *first, const char *last)
{
	int a = step_index(first), b = step_index(last);

	/* Slices are named by the code, never by input: an unknown name is a bug. */
	if (a < 0 || b < 0 || a > b)
		return error_set(ERROR_INTERNAL, "internal error: no pipeline slice '%s'..'%s'",
			first, last);
	/* A file that could not be taken in (too large, not a regular file, unreadable) is bad
	 * input before anything else looks at the campaign: without it, the turn would be
	 * judged on the files left, e.g. as one already processed (issue 25). */
	if (t->source == TURN_LIVE && diag_count(&t->diag)) {
		t->failed_step = "orders";
		return error_set(ERROR_INPUT, "the order files have errors");
	}
	for (int i = a; i <= b; i++) {
		int rc = steps[i].run(t);
		if (rc < 0)
			t->failed_step = steps[i].name;
		if (rc != 0)
			return rc;
	}
	return 0;
}

/* --- set-up ---------------------------------------------------------------------------- */

void turn_beacon(uint8_t out[FAIR_HASH_BYTES], const char *value)
{
	memset(out, 0, FAIR_HASH_BYTES);
	if (value)
		fair_sha256(out, value, strlen(value));
}

void turn_chain_head(uint8_t out[FAIR_HASH_BYTES], const uint8_t prev[FAIR_HASH_BYTES],
	const void *entry, size_t len)
{
	fair_sha256_concat(out, prev, FAIR_HASH_BYTES, entry, len);
}

void turn_init(struct turn *t, struct campaign *c, enum turn_source source, unsigned flags,
	const struct journal_record *record, const char *rev, void *state)
{
	memset(t, 0, sizeof(*t));
	t->c = c;
	t->source = source;
	t->flags = flags;
	t->record = record;
	t->rev = rev;
	t->state = state;
	t->record_name = "the journal";
	if (record)
		t->in.turn = record->turn;
	diag_init(&t->diag);
	dice_init_fair(&t->out.dice, t->out.seed);
	events_init(&t->out.events);
}

static void free_record_parts(struct journal_record *r)
{
	file_list_free(r->files, r->n_files);
	free(r->file_sha256);
	free(r->orders);
	free(r->events);
	memset(r, 0, sizeof(*r));
}

void turn_release(struct turn *t)
{
	struct turn_input *in = &t->in;
	struct turn_output *out = &t->out;

	buf_release(&t->notes);
	for (size_t i = 0; i < in->n_files; i++)
		order_file_release(&in->files[i], t->c);
	free(in->files);
	for (size_t i = 0; i < in->n_missing; i++)
		free(in->missing[i]);
	free(in->missing);
	free(in->beacon_value);
	free(in->beacon_round);
	free(in->beacon_signature);
	dice_release(&out->dice);
	events_release(&out->events);
	free(out->summary);
	buf_release(&out->state_yaml);
	if (out->read_state)
		t->c->rules->state_free(out->read_state);
	buf_release(&out->whole_yaml);
	buf_release(&out->journal_yaml);
	for (size_t i = 0; i < out->n_reports; i++)
		buf_release(&out->reports[i]);
	buf_release(&out->public_report);
	free(out->reports);
	for (size_t i = 0; out->maps && i < out->n_reports; i++)
		buf_release(&out->maps[i]);
	free(out->maps);
	free(out->own_map);
	buf_release(&out->public_map);
	if (out->game_turns)
		buf_release(out->game_turns);
	free(out->game_turns);
	if (t->before)
		t->c->rules->state_free(t->before);
	for (size_t i = 0; out->views && i < t->c->n_players; i++)
		buf_release(&out->views[i].state);
	free(out->views);
	diag_release(&t->diag);
	journal_record_free(t->last);
	close_release(&t->close);
	for (size_t i = 0; i < t->n_salts; i++)
		free(t->salts[i].player);
	free(t->salts);
	free_record_parts(&t->rec);
	if (t->owns_state && t->state)
		t->c->rules->state_free(t->state);
	memset(t, 0, sizeof(*t));
}

void turn_add_order_bytes(struct turn *t, const char *name, const void *bytes, size_t len)
{
	struct turn_input *in = &t->in;
	struct order_file *f;

	in->files = xrealloc(in->files, (in->n_files + 1) * sizeof(*in->files));
	f = &in->files[in->n_files++];
	memset(f, 0, sizeof(*f));
	f->path = xstrdup(name);
	f->bytes = xmalloc(len ? len : 1);
	if (len)
		memcpy(f->bytes, bytes, len);
	f->len = len;
	fair_sha256(f->sha256, f->bytes, len);
}

/* 1 if st is the campaign's .umpire/secret (the same file, whatever path led to it). */
static int is_secret_file(const struct campaign *c, const struct stat *st)
{
	char *path = xasprintf("%s/.umpire/secret", c->dir);
	struct stat sec;
	int same = stat(path, &sec) == 0 && sec.st_dev == st->st_dev && sec.st_ino == st->st_ino;

	free(path);
	return same;
}

int turn_add_order_file(struct turn *t, const char *path)
{
	struct buf bytes = BUF_INIT;
	struct stat st;
	int rc = file_read_stat(path, ORDER_FILE_MAX_BYTES, &bytes, &st);

	if (rc == 0 && t->c && is_secret_file(t->c, &st)) {
		diag_add(&t->diag, path, 1, 1,
			"this is the umpire's secret (.umpire/secret), never an order file (an order file expected)");
		rc = error_set(ERROR_INPUT, "the umpire's secret given as an order file");
		fair_wipe(bytes.data, bytes.len);
	} else if (rc == 0)
		turn_add_order_bytes(t, path, bytes.data, bytes.len);
	else if (error_last()->klass == ERROR_MISSING)
		diag_add(&t->diag, path, 1, 1,
			"cannot open order file: %s (a readable file expected)", strerror(errno));
	else if (error_last()->klass == ERROR_INPUT)
		diag_add(&t->diag, path, 1, 1, "order %s", error_last()->message);
	else
		diag_add(&t->diag, path, 1, 1, "cannot read order file (a readable file expected)");
	buf_release(&bytes);
	return rc;
}

int turn_add_rulings_file(struct turn *t, const char *path)
{
	size_t before = t->in.n_files;
	int rc = turn_add_order_file(t, path);

	if (t->in.n_files > before)
		t->in.files[t->in.n_files - 1].is_rulings = 1;
	return rc;
}

void turn_set_beacon(struct turn *t, const char *value, const char *round)
{
	/* Copies first: value or round may be the turn's own. */
	char *v = value ? xstrdup(value) : NULL;
	char *r = value && round ? xstrdup(round) : NULL;

	free(t->in.beacon_value);
	free(t->in.beacon_round);
	t->in.beacon_value = v;
	t->in.beacon_round = r;
}

void turn_set_beacon_signature(struct turn *t, const char *signature)
{
	char *s = signature ? xstrdup(signature) : NULL;
	free(t->in.beacon_signature);
	t->in.beacon_signature = s;
}

const struct order_file *turn_find_file(const struct turn_input *in, const char *player)
{
	for (size_t i = 0; i < in->n_files; i++)
		if (in->files[i].player && strcmp(in->files[i].player, player) == 0)
			return &in->files[i];
	return NULL;
}

/* --- randomness -------------------------------------------------------------------------- */

/* entropy beacon: the value of the round the close named, given by the umpire (live) or as
 * journaled (recorded); a live turn cannot take a round not yet out by its own clock. */
static int beacon_randomness(struct turn *t)
{
	char round[32];

	snprintf(round, sizeof round, "%lld", t->close.round);
	if (t->source == TURN_RECORDED) {
		turn_set_beacon(t, t->record->beacon_value, t->record->beacon_round);
		turn_set_beacon_signature(t, t->record->beacon_signature);
	}
	if (!t->in.beacon_value) {
		char at[WHEN_MAX];
		when_describe(at, t->close.round_at, t->when);
		char *next =
			t->c->beacon_key ?
				xasprintf(
					"run 'umpire turn %s --beacon-fetch' (or give the value and its signature: --beacon VALUE --beacon-signature SIG)",
					t->c->dir) :
				xstrdup("give its value: --beacon VALUE");
		/* before the round is out: "not yet" (75), as the docs say; after: a usage slip */
		error_set(t->source == TURN_LIVE && t->when < t->close.round_at ? ERROR_BUSY :
										  ERROR_INPUT,
			"turn %d takes the value of beacon round %s (%s), out at %s: %s",
			t->in.turn, round, t->c->beacon, at, next);
		free(next);
		return -1;
	}
	if (t->in.beacon_round && strcmp(t->in.beacon_round, round) != 0)
		return error_set(ERROR_INPUT, "turn %d: the close named beacon round %s, not %s",
			t->in.turn, round, t->in.beacon_round);
	if (t->source == TURN_LIVE && t->when < t->close.round_at) {
		char at[WHEN_MAX];
		when_describe(at, t->close.round_at, t->when);
		return error_set(ERROR_BUSY, /* not yet: exit 75 */
			"turn %d: beacon round %s is out at %s: no value of it exists yet; run 'umpire turn %s %s' then",
			t->in.turn, round, at, t->c->dir,
			t->c->beacon_key ? "--beacon-fetch" : "--beacon VALUE");
	}
	/* A recorded turn's round is checked with the rest of its fairness (audit_fairness). */
	if (t->source == TURN_LIVE && beacon_check_round(t->c, t->in.turn, round,
					      t->in.beacon_value, t->in.beacon_signature) < 0)
		return -1;
	turn_set_beacon(t, t->in.beacon_value, round);
	return 0;
}

/* A nonce as `reveal` keeps it: 64 hex digits and a line break. 0, or -1 when not so. */
static int kept_nonce(const struct buf *bytes, uint8_t nonce[FAIR_HASH_BYTES])
{
	char hex[2 * FAIR_HASH_BYTES + 1];

	if (bytes->len != 2 * FAIR_HASH_BYTES + 1 || bytes->data[2 * FAIR_HASH_BYTES] != '\n')
		return -1;
	memcpy(hex, bytes->data, 2 * FAIR_HASH_BYTES);
	hex[2 * FAIR_HASH_BYTES] = '\0';
	return hex_decode(nonce, FAIR_HASH_BYTES, hex);
}

int turn_keep_reveal(const struct campaign *c, int turn, const char *player,
	const uint8_t nonce[FAIR_HASH_BYTES])
{
	char hex[2 * FAIR_HASH_BYTES + 1];
	char *dir = turn_private_dir(c, "reveals", turn);

	hex_encode(hex, nonce, FAIR_HASH_BYTES);
	hex[2 * FAIR_HASH_BYTES] = '\n';
	int rc = file_write_durable(dir, player, hex, sizeof(hex));
	free(dir);
	return rc;
}

size_t turn_reveals_missing(const struct campaign *c, const struct close_record *r, struct buf *who)
{
	char *dir = turn_private_dir(c, "reveals", r->turn);
	struct buf bytes = BUF_INIT;
	size_t n = 0;

	for (size_t i = 0; i < r->n_orders; i++) {
		const struct close_order *o = &r->orders[i];
		if (!o->has_entropy)
			continue;
		char *path = xasprintf("%s/%s", dir, o->player);
		uint8_t nonce[FAIR_HASH_BYTES], h[FAIR_HASH_BYTES];
		int ok = 0;
		buf_clear(&bytes);
		if (file_read(path, 200, &bytes) == 0 && kept_nonce(&bytes, nonce) == 0) {
			fair_sha256(h, nonce, FAIR_HASH_BYTES);
			ok = memcmp(h, o->entropy, FAIR_HASH_BYTES) == 0;
		}
		if (!ok) {
			buf_printf(who, "%s%s", n ? ", " : "", o->player);
			n++;
		}
		free(path);
	}
	error_clear();
	buf_release(&bytes);
	free(dir);
	return n;
}

/* entropy players, live: each committed player's nonce from .umpire/reveals/turn-NNNN/. */
static int read_reveals(struct turn *t, struct close_reveal *rv)
{
	char *dir = turn_private_dir(t->c, "reveals", t->in.turn);
	struct buf missing = BUF_INIT, bytes = BUF_INIT;
	int rc = 0;

	for (size_t i = 0; i < t->close.n_orders; i++) {
		const struct close_order *o = &t->close.orders[i];
		char *path = xasprintf("%s/%s", dir, o->player);
		uint8_t h[FAIR_HASH_BYTES];
		rv[i].player = o->player;
		buf_clear(&bytes);
		if (o->has_entropy && file_read(path, 200, &bytes) == 0 &&
			kept_nonce(&bytes, rv[i].nonce) == 0) {
			fair_sha256(h, rv[i].nonce, FAIR_HASH_BYTES);
			rv[i].revealed = memcmp(h, o->entropy, FAIR_HASH_BYTES) == 0;
		}
		if (o->has_entropy && !rv[i].revealed)
			buf_printf(&missing, "%s%s", missing.len ? ", " : "", o->player);
		free(path);
	}
	if (missing.len && !(t->flags & TURN_ALLOW_MISSING))
		rc = error_set(ERROR_BUSY, /* reveals pending: not yet, exit 75 */
			"turn %d: no reveal from %s (umpire reveal DIR FILE..., or --allow-missing once the deadline is past: each one's committed hash then stands in)",
			t->in.turn, buf_str(&missing));
	buf_release(&missing);
	buf_release(&bytes);
	free(dir);
	return rc;
}

/* entropy players: the reveals text (close_reveals_text) is the beacon value; a player who
 * did not reveal is journaled, his commitment standing in. */
static int players_randomness(struct turn *t)
{
	struct close_reveal *rv = xcalloc(t->close.n_orders + 1, sizeof(*rv));
	int rc;

	if (t->source == TURN_RECORDED) {
		rc = t->record->beacon_value ?
			     close_reveals_parse(&t->close, t->record->beacon_value, rv) :
			     error_set(ERROR_INPUT, "turn %d: %s has no reveals", t->in.turn,
				     t->record_name);
		if (rc < 0)
			error_prefix("turn %d", t->in.turn);
	} else {
		rc = read_reveals(t, rv);
	}
	if (rc == 0) {
		char *text = close_reveals_text(&t->close, rv);
		turn_set_beacon(t, text, "players");
		free(text);
		for (size_t i = 0; i < t->close.n_orders; i++)
			if (t->close.orders[i].has_entropy && !rv[i].revealed)
				events_add(&t->out.events, "randomness",
					"no reveal from %s: the hash his orders committed to stands in for his nonce",
					t->close.orders[i].player);
	}
	free(rv);
	return rc;
}

static int step_randomness(struct turn *t)
{
	int rc = 0;

	if (t->c->entropy == CAMPAIGN_ENTROPY_BEACON)
		rc = beacon_randomness(t);
	else if (t->c->entropy == CAMPAIGN_ENTROPY_PLAYERS)
		rc = players_randomness(t);
	else if (t->source == TURN_RECORDED)
		turn_set_beacon(t, t->record->beacon_value, t->record->beacon_round);
	if (rc == 0)
		turn_beacon(t->out.beacon, t->in.beacon_value);
	/* The round's signature is checked: time-locked orders open now (timelock.h). */
	if (rc == 0 && t->c->orders_timelocked)
		rc = timelock_open_files(t);
	return rc;
}

/* --- seed -------------------------------------------------------------------------------- */

/* k_t: from the umpire's secret, checked against the commitment (live); from the record. */
static int turn_key(struct turn *t, uint8_t key[FAIR_HASH_BYTES])
{
	struct campaign *c = t->c;
	uint8_t secret[FAIR_HASH_BYTES];

	if (t->source == TURN_RECORDED) {
		memcpy(key, t->record->key, FAIR_HASH_BYTES);
		return 0;
	}
	/* Locked in memory (never swapped out) and wiped as soon as the key is derived. */
	fair_secret_lock(secret, sizeof secret);
	int rc = campaign_read_secret(c, secret);
	if (rc == 0)
		fair_turn_key(key, secret, c->chain_length, (uint32_t)t->in.turn);
	fair_secret_unlock(secret, sizeof secret);
	if (rc < 0)
		return -1;
	if (!fair_key_check(key, (uint32_t)t->in.turn, c->commitment))
		return error_set(ERROR_INPUT,
			".umpire/secret does not match the campaign's commitment (wrong secret file?)");
	return 0;
}

static int step_seed(struct turn *t)
{
	struct turn_output *out = &t->out;

	if (turn_key(t, out->key) < 0)
		return -1;
	turn_orders_digest(t, out->digest);
	fair_turn_seed(out->seed, out->key, (uint32_t)t->in.turn, out->digest, out->beacon);
	dice_release(&out->dice);
	dice_init_fair(&out->dice, out->seed);
	if (t->source == TURN_RECORDED && (t->flags & TURN_DICE_CHECKED) &&
		memcmp(out->seed, t->record->seed, FAIR_HASH_BYTES) == 0)
		dice_reuse_checked(&out->dice, t->record->dice, t->record->n_dice);
	/* Every event records how many dice had been drawn: what ties a die to its event. */
	out->events.dice = &out->dice;
	out->events.sealed = t->c->visibility == CAMPAIGN_SEALED;
	return 0;
}

/* --- rulings and resolve ----------------------------------------------------------------- */

/* The umpire's adjustments, in file order, after the rulings' dice (they draw none) and before
 * the rule system's turn: the model as the umpire found the table. Each is journaled as an
 * event of phase "adjustments" with its reason. */
static int apply_adjustments(struct turn *t, const struct order_file *uf)
{
	const struct campaign *c = t->c;
	struct buf what = BUF_INIT;
	int rc = 0;

	for (size_t i = 0; uf && i < uf->n_adjustments && rc == 0; i++) {
		const struct adjustment *a = &uf->adjustments[i];
		buf_release(&what);
		if (c->rules->adjust_apply(&c->rc, t->state, a, &what) < 0)
			rc = error_set(ERROR_INTERNAL,
				"internal error: rule system '%s' failed on adjustment %zu of turn %d",
				c->rules->name, a->index, t->in.turn);
		else
			events_add(&t->out.events, "adjustments",
				"umpire adjustment %zu: %s (reason: %s)", a->index, buf_str(&what),
				a->reason);
	}
	buf_release(&what);
	return rc;
}

/* Umpire rulings come first: they are facts of the turn the rules then play out in. */
static int step_rulings(struct turn *t)
{
	const struct order_file *uf = turn_find_file(&t->in, UMPIRE_PLAYER);

	if (render_keep_before(t) < 0)
		return -1;
	for (size_t i = 0; uf && i < uf->n_rulings; i++) {
		const struct ruling *r = &uf->rulings[i];
		char *purpose = xasprintf("umpire ruling %zu: %s", i + 1, r->what);
		long long total = dice_expr_roll(&t->out.dice, &r->expr, purpose);
		events_add(&t->out.events, "umpire", "%s: %s = %lld", r->what, r->notation, total);
		free(purpose);
	}
	return apply_adjustments(t, uf);
}

int turn_is_missing(const struct turn_input *in, const char *player)
{
	for (size_t i = 0; i < in->n_missing; i++)
		if (strcmp(in->missing[i], player) == 0)
			return 1;
	return 0;
}

/* A due player's missed turns (core/missed.h): journals entering or leaving civil disorder
 * and, when his side holds, sets *held to the rule system's hold orders (the caller frees
 * them with orders_free). Every player's history decides it the same way: nothing here is
 * the umpire's choice. Returns 0, or -1. */
static int missed_orders(struct turn *t, const char *player, int sent, void **held)
{
	const struct rule_system *rs = t->c->rules;
	struct missed_plan p;

	*held = NULL;
	if (missed_plan(&p, t->c, t->in.turn, player, sent) < 0)
		return error_prefix("turn %d: the turns %s missed", t->in.turn, player);
	if (p.event[0])
		events_add(&t->out.events, "orders", "%s", p.event);
	if (p.hold && rs->hold_orders &&
		rs->hold_orders(held, &t->c->rc, t->state, t->in.turn, player) < 0)
		return error_set(ERROR_INTERNAL,
			"internal error: rule system '%s' gave no hold orders for %s on turn %d",
			rs->name, player, t->in.turn);
	return 0;
}

/* The rule system gets one entry per due player, in player-id order. */
static int step_resolve(struct turn *t)
{
	struct campaign *c = t->c;
	size_t n_ids, n_ro = 0;
	const char **ids = campaign_ids(c, &n_ids);
	struct rules_orders *ro = xcalloc(n_ids, sizeof(*ro));
	void **held = xcalloc(n_ids, sizeof(*held));
	struct rules_turn rt;
	int rc = 0;

	memset(&rt, 0, sizeof(rt));
	for (size_t i = 0; i < n_ids && rc == 0; i++) {
		const struct order_file *f = turn_find_file(&t->in, ids[i]);
		int missing = turn_is_missing(&t->in, ids[i]);
		if (strcmp(ids[i], UMPIRE_PLAYER) == 0 || (!f && !missing))
			continue;
		/* A contribution is entropy alone from a player who is not due: nothing for the
		 * rule system, but a file accepted from him, which ends a run of missed turns
		 * (core/missed.h counts it so) and says so when it ends civil disorder. */
		if (f && f->contribution) {
			void *none = NULL;
			rc = missed_orders(t, ids[i], 1, &none);
			continue;
		}
		ro[n_ro].player = ids[i];
		ro[n_ro].orders = f ? f->orders : NULL;
		if (missing)
			events_add(&t->out.events, "orders", EVENTS_NO_ORDERS, ids[i]);
		else if (f && f->timelock_failed)
			events_add(&t->out.events, "orders", EVENTS_VOID_FILE, ids[i],
				f->timelock_failed);
		rc = missed_orders(t, ids[i], f != NULL, &held[n_ro]);
		if (held[n_ro])
			ro[n_ro].orders = held[n_ro];
		n_ro++;
	}
	if (rc < 0)
		goto done;
	rt.turn = t->in.turn;
	rt.orders = ro;
	rt.n_orders = n_ro;
	rt.dice = &t->out.dice;
	rt.events = &t->out.events;
	t->out.rules_first_die = dice_count(&t->out.dice);
	t->out.rules_first_event = t->out.events.n;
	if (c->rules->resolve(&c->rc, t->state, &rt) < 0)
		rc = error_set(ERROR_INTERNAL,
			"internal error: rule system '%s' failed on turn %d%s%s", c->rules->name,
			t->in.turn, rt.why.len ? ": " : "", buf_str(&rt.why));
	else if (rt.summary.len)
		t->out.summary = xstrdup(buf_str(&rt.summary));
	else
		t->out.summary = xasprintf("%zu dice, %zu events", t->out.dice.n, t->out.events.n);
	if (rc == 0)
		end_add_events(t); /* a concession, the umpire's end: after the rule system's */
	for (char *p = t->out.summary; p && *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
done:
	buf_release(&rt.summary);
	buf_release(&rt.why);
	for (size_t i = 0; i < n_ro; i++)
		if (held[i])
			c->rules->orders_free(held[i]);
	free(held);
	free(ro);
	free(ids);
	return rc;
}
