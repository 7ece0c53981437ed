/* check_journal.c — the SQLite journal: full round trip of a turn (BLOBs with NUL bytes
 * included), dense turn numbers, all-or-nothing appends, and the schema's refusal of every
 * UPDATE, DELETE, REPLACE and out-of-order insert, tried through the real sqlite3 shell. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/journal.h"
#include "testutil.h"

/* Unchecked fixture: runs in the parent, so the directory goes even when a test fails. */
static void root_setup(void)
{
	test_root_make("journal");
}

static void root_teardown(void)
{
	test_root_remove();
}

/* Runs sql through the sqlite3 shell on db (written to a file: no shell quoting). */
static int sqlite_cli(const char *db, const char *sql, struct buf *out)
{
	char *script = test_path("cli.sql");
	FILE *f = fopen(script, "w");
	int rc;

	ck_assert_ptr_nonnull(f);
	fputs(sql, f);
	ck_assert_int_eq(fclose(f), 0);
	rc = test_run(out, "sqlite3 -bail '%s' < '%s'", db, script);
	free(script);
	return rc;
}

static void read_file(const char *path, struct buf *out)
{
	char chunk[4096];
	size_t n;
	FILE *f = fopen(path, "rb");

	ck_assert_msg(f != NULL, "cannot open %s (run the suite from the source root)", path);
	buf_clear(out);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_append(out, chunk, n);
	fclose(f);
}

static long long row_count(struct journal *j)
{
	struct buf err = BUF_INIT;
	long long n = -1;

	ck_assert_msg(journal_row_count(j, &n) == 0, "%s", error_last()->message);
	buf_release(&err);
	return n;
}

static int last_turn(struct journal *j)
{
	struct buf err = BUF_INIT;
	int t = -2;

	ck_assert_msg(journal_last_turn(j, &t) == 0, "%s", error_last()->message);
	buf_release(&err);
	return t;
}

/* --- test records: static data, so the expected values are plain to read ------------- */

static const char H1[] = "1111111111111111111111111111111111111111111111111111111111111111";
static const char H2[] = "2222222222222222222222222222222222222222222222222222222222222222";
static const char H3[] = "abcdefabcdefabcdefabcdefabcdefabcdefabcdefabcdefabcdefabcdef0123";
static const char H4[] = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
static const char H5[] = "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff";

static unsigned char order_bytes[] = "campaign: x\r\nturn: 1\0player: attacker\r\n";
static unsigned char state0[] = "campaign: x\nturn: 0\n";
static unsigned char state1[] = "campaign: x\nturn: 1\n\0\0tail";
static unsigned char empty_file[] = "";

static struct journal_order orders1[] = {
	{ "attacker", 1, { 0 }, order_bytes, sizeof(order_bytes) - 1 },
	{ "defender", 0, { 0 }, NULL, 0 },     /* sent nothing */
	{ "umpire", 1, { 0 }, empty_file, 0 }, /* sent an empty file */
};

/* A hash from its hex (the tests' constants). */
static void set_hash(uint8_t out[FAIR_HASH_BYTES], const char *hex)
{
	ck_assert_int_eq(hex_decode(out, FAIR_HASH_BYTES, hex), 0);
}

static void assert_hash(const uint8_t got[FAIR_HASH_BYTES], const char *hex)
{
	char g[65];

	hex_encode(g, got, FAIR_HASH_BYTES);
	ck_assert_str_eq(g, hex);
}
static struct die_record dice1[] = {
	{ 0, 6, 4, "Land Raid §22 Shooting: musketeers (A1) at pikes (B2), DRM +1" },
	{ 1, 6, 6, "Land Raid §22 Shooting: musketeers (A1) at pikes (B2), DRM +1" },
	{ 2, 10, 1, "Land Raid §30 Morale check: pikes (B2), DRM -2" },
};
static struct event events1[] = {
	{ EVENT_EVENT, "shooting", NULL, 0, "musketeers (A1) hit pikes (B2) twice", 0 },
	{ EVENT_VOID, "movement", "defender", 2, "pikes (B2) is shaken and cannot charge", 0 },
};
static struct file files0[] = {
	{ "state.yaml", state0, sizeof(state0) - 1 },
	{ "campaign.yaml", (unsigned char *)"id: x\n", 6 },
};
static struct file files1[] = {
	{ "orders/turn-0001/attacker.yaml", order_bytes, sizeof(order_bytes) - 1 },
	{ "state.yaml", state1, sizeof(state1) - 1 },
	{ "reports/turn-0001/empty.txt", empty_file, 0 },
};

static void record0(struct journal_record *r)
{
	memset(r, 0, sizeof(*r));
	r->turn = 0;
	set_hash(r->state_sha256, H5);
	set_hash(r->journal_head, H1);
	r->summary = "Setup";
	r->processed_at = 1700000000;
	r->files = files0;
	r->n_files = 2;
}

static void record1(struct journal_record *r)
{
	memset(r, 0, sizeof(*r));
	r->turn = 1;
	set_hash(r->key, H1);
	set_hash(r->orders_digest, H2);
	set_hash(r->beacon, H3);
	set_hash(r->seed, H4);
	set_hash(r->state_sha256, H5);
	set_hash(r->journal_head, H2);
	snprintf(r->commit_id, 41, "%s", "0123456789abcdef0123456789abcdef01234567");
	r->beacon_value = "drand round 12345 randomness";
	r->beacon_round = "12345";
	r->summary = "Turn 1: shooting and a failed charge";
	r->processed_at = 1700003600;
	set_hash(orders1[0].sha256, H3);
	set_hash(orders1[2].sha256, H4);
	r->orders = orders1;
	r->n_orders = 3;
	r->dice = dice1;
	r->n_dice = 3;
	r->events = events1;
	r->n_events = 2;
	r->files = files1;
	r->n_files = 3;
}

static struct journal *open_new(const char *name)
{
	struct buf err = BUF_INIT;
	struct journal *j = NULL;
	char *path = test_path(name);

	ck_assert_msg(journal_open(&j, path, 1) == 0, "%s", error_last()->message);
	free(path);
	buf_release(&err);
	return j;
}

static void append_ok(struct journal *j, const struct journal_record *r)
{
	struct buf err = BUF_INIT;

	ck_assert_msg(journal_append(j, r) == 0, "%s", error_last()->message);
	buf_release(&err);
}

static void assert_bytes(const unsigned char *got, size_t got_len, const unsigned char *want,
	size_t want_len)
{
	ck_assert_uint_eq(got_len, want_len);
	if (want_len)
		ck_assert_int_eq(memcmp(got, want, want_len), 0);
}

/* Compares a record read back with the one appended. Orders and files come back sorted
 * (by player, by path), so the expectation names the order. */
static void assert_record1(const struct journal_record *g)
{
	const struct journal_record *w;
	struct journal_record want;
	static const size_t file_order[] = { 0, 2, 1 }; /* orders/…, reports/…, state.yaml */

	record1(&want);
	w = &want;
	ck_assert_int_eq(g->turn, 1);
	assert_hash(g->key, H1);
	assert_hash(g->orders_digest, H2);
	assert_hash(g->beacon, H3);
	assert_hash(g->seed, H4);
	assert_hash(g->state_sha256, H5);
	ck_assert_str_eq(g->summary, w->summary);
	ck_assert_int_eq(g->processed_at, 1700003600);
	assert_hash(g->journal_head, H2);
	ck_assert_str_eq(g->commit_id, "0123456789abcdef0123456789abcdef01234567");
	ck_assert_str_eq(g->beacon_value, "drand round 12345 randomness");
	ck_assert_str_eq(g->beacon_round, "12345");

	ck_assert_uint_eq(g->n_orders, 3);
	for (size_t i = 0; i < 3; i++) {
		ck_assert_str_eq(g->orders[i].player, w->orders[i].player);
		ck_assert_int_eq(g->orders[i].has_file, w->orders[i].has_file);
		ck_assert_int_eq(memcmp(g->orders[i].sha256, w->orders[i].sha256, FAIR_HASH_BYTES),
			0);
	}
	assert_bytes(g->orders[0].bytes, g->orders[0].len, order_bytes, sizeof(order_bytes) - 1);
	ck_assert_ptr_null(g->orders[1].bytes);    /* no file: NULL, not empty */
	ck_assert_ptr_nonnull(g->orders[2].bytes); /* an empty file: present, zero length */
	ck_assert_uint_eq(g->orders[2].len, 0);

	ck_assert_uint_eq(g->n_dice, 3);
	for (size_t i = 0; i < 3; i++) {
		ck_assert_uint_eq(g->dice[i].index, i);
		ck_assert_uint_eq(g->dice[i].sides, w->dice[i].sides);
		ck_assert_uint_eq(g->dice[i].value, w->dice[i].value);
		ck_assert_str_eq(g->dice[i].purpose, w->dice[i].purpose);
	}

	ck_assert_uint_eq(g->n_events, 2);
	ck_assert_str_eq(g->events[0].phase, "shooting");
	ck_assert_int_eq(g->events[0].kind, EVENT_EVENT);
	ck_assert_ptr_null(g->events[0].player);
	ck_assert_int_eq(g->events[0].order_index, 0);
	ck_assert_str_eq(g->events[0].text, events1[0].text);
	ck_assert_str_eq(g->events[1].phase, "movement");
	ck_assert_int_eq(g->events[1].kind, EVENT_VOID);
	ck_assert_str_eq(g->events[1].player, "defender");
	ck_assert_int_eq(g->events[1].order_index, 2);
	ck_assert_str_eq(g->events[1].text, events1[1].text);

	ck_assert_uint_eq(g->n_files, 3);
	for (size_t i = 0; i < 3; i++) {
		const struct file *f = &w->files[file_order[i]];
		uint8_t h[FAIR_HASH_BYTES];
		ck_assert_str_eq(g->files[i].path, f->path);
		/* after the setup, the hash of the bytes, not the bytes (git holds them) */
		fair_sha256(h, f->data, f->len);
		ck_assert_int_eq(memcmp(g->file_sha256[i], h, FAIR_HASH_BYTES), 0);
		ck_assert_ptr_null(g->files[i].data);
		ck_assert_uint_eq(g->files[i].len, 0);
	}
}

/* --- tests ---------------------------------------------------------------------------- */

/* schemas/journal.sql and the DDL journal.c embeds must build the same database. */
START_TEST(test_schema_file_matches_embedded)
{
	struct buf ours = BUF_INIT, theirs = BUF_INIT, out = BUF_INIT, ddl = BUF_INIT;
	struct journal *j = open_new("embedded.sqlite");
	char *from_file = test_path("from-file.sqlite");
	char *embedded = test_path("embedded.sqlite");

	journal_close(j);
	read_file("schemas/journal.sql", &ddl);
	ck_assert_msg(sqlite_cli(from_file, buf_str(&ddl), &out) == 0, "%s", buf_str(&out));
	ck_assert_int_eq(test_run(&ours, "sqlite3 '%s' .dump", embedded), 0);
	ck_assert_int_eq(test_run(&theirs, "sqlite3 '%s' .dump", from_file), 0);
	ck_assert_ptr_nonnull(strstr(buf_str(&ours), "CREATE TRIGGER dice_dense"));
	ck_assert_ptr_nonnull(strstr(buf_str(&ours), "'schema_version','2'"));
	/* ck_assert_str_eq would overflow Check's message limit with two whole dumps. */
	ck_assert_msg(strcmp(buf_str(&ours), buf_str(&theirs)) == 0,
		"schemas/journal.sql and journal.c's DDL differ: compare sqlite3 .dump of %s and %s",
		embedded, from_file);

	ck_assert_int_eq(test_run(&out, "sqlite3 '%s' 'PRAGMA journal_mode'", embedded), 0);
	ck_assert_str_eq(buf_str(&out), "wal\n");
	free(from_file);
	free(embedded);
	buf_release(&ours);
	buf_release(&theirs);
	buf_release(&out);
	buf_release(&ddl);
}
END_TEST

START_TEST(test_round_trip)
{
	struct buf err = BUF_INIT;
	struct journal_record r0, r1, *g = NULL;
	struct journal *j = open_new("round-trip.sqlite");
	char *path = test_path("round-trip.sqlite");

	ck_assert_int_eq(last_turn(j), -1);
	ck_assert_int_eq(journal_read(j, 0, &g), ERROR_NOTFOUND);
	ck_assert_ptr_null(g);
	record0(&r0);
	record1(&r1);
	append_ok(j, &r0);
	append_ok(j, &r1);
	ck_assert_int_eq(last_turn(j), 1);
	/* meta 1, turns 2, orders 3, dice 3, events 2, files 2 + 3 */
	ck_assert_int_eq(row_count(j), 16);
	journal_close(j);

	/* Read back through a new connection: what is on disk, not what a cache holds. */
	ck_assert_msg(journal_open(&j, path, 0) == 0, "%s", error_last()->message);
	ck_assert_msg(journal_read(j, 1, &g) == 0, "%s", error_last()->message);
	assert_record1(g);
	journal_record_free(g);

	ck_assert_int_eq(journal_read(j, 0, &g), 0);
	ck_assert_int_eq(g->turn, 0);
	/* No key, digest, beacon or seed at setup: NULL in SQLite, zeros in memory. */
	static const char zero[] =
		"0000000000000000000000000000000000000000000000000000000000000000";
	assert_hash(g->key, zero);
	assert_hash(g->orders_digest, zero);
	assert_hash(g->beacon, zero);
	assert_hash(g->seed, zero);
	ck_assert_str_eq(g->summary, "Setup");
	ck_assert_uint_eq(g->n_orders + g->n_dice + g->n_events, 0);
	ck_assert_uint_eq(g->n_files, 2);
	ck_assert_str_eq(g->files[0].path, "campaign.yaml");
	ck_assert_str_eq(g->files[1].path, "state.yaml");
	/* the setup's campaign.yaml kept byte for byte (the identity check), no other file */
	assert_bytes(g->files[0].data, g->files[0].len, (const unsigned char *)"id: x\n", 6);
	ck_assert_ptr_null(g->files[1].data);
	uint8_t h0[FAIR_HASH_BYTES];
	fair_sha256(h0, state0, sizeof(state0) - 1);
	ck_assert_int_eq(memcmp(g->file_sha256[1], h0, FAIR_HASH_BYTES), 0);
	journal_record_free(g);

	ck_assert_int_eq(journal_read(j, 2, &g), ERROR_NOTFOUND);
	ck_assert_ptr_null(g);
	journal_close(j);
	free(path);
	buf_release(&err);
}
END_TEST

/* journal_each_summary's walk: each turn's summary and number, kept in a buffer. */
static int collect_summary(int turn, const char *summary, void *arg)
{
	buf_printf(arg, "%d=%s;", turn, summary);
	return strcmp(summary, "stop") == 0 ? 7 : 0;
}

START_TEST(test_each_summary)
{
	struct journal_record r0, r1;
	struct journal *j = open_new("summaries.sqlite");
	struct buf got = BUF_INIT;

	record0(&r0);
	record1(&r1);
	append_ok(j, &r0);
	append_ok(j, &r1);
	/* The turns before `before`, from 1: never the setup's row. */
	for (int before = -1; before <= 1; before++) {
		ck_assert_int_eq(journal_each_summary(j, before, collect_summary, &got), 0);
		ck_assert_uint_eq(got.len, 0);
	}
	ck_assert_int_eq(journal_each_summary(j, 2, collect_summary, &got), 0);
	ck_assert_str_eq(buf_str(&got), "1=Turn 1: shooting and a failed charge;");
	buf_clear(&got);
	ck_assert_int_eq(journal_each_summary(j, 99, collect_summary, &got), 0);
	ck_assert_str_eq(buf_str(&got), "1=Turn 1: shooting and a failed charge;");
	journal_close(j);

	/* The walk stops at fn's nonzero answer, which it returns. */
	j = open_new("summaries-stop.sqlite");
	r1.summary = "stop";
	append_ok(j, &r0);
	append_ok(j, &r1);
	buf_clear(&got);
	ck_assert_int_eq(journal_each_summary(j, 2, collect_summary, &got), 7);
	ck_assert_str_eq(buf_str(&got), "1=stop;");
	journal_close(j);
	buf_release(&got);
}
END_TEST

START_TEST(test_turns_are_dense)
{
	struct buf err = BUF_INIT;
	struct journal_record r0, r1;
	struct journal *j = open_new("dense.sqlite");
	long long before;

	record1(&r1);
	ck_assert_int_eq(journal_append(j, &r1), -1); /* turn 1 before the setup */
	ck_assert_str_eq(error_last()->message,
		"journal: cannot append turn 1: journal is append-only:"
		" turn must be the last turn + 1");
	ck_assert_int_eq(row_count(j), 1); /* only meta */

	record0(&r0);
	append_ok(j, &r0);
	before = row_count(j);
	r1.turn = 2;
	ck_assert_int_eq(journal_append(j, &r1), -1); /* 2 after 0 */
	ck_assert_ptr_nonnull(strstr(error_last()->message, "cannot append turn 2: "));
	ck_assert_int_eq(row_count(j), before);
	ck_assert_int_eq(last_turn(j), 0);

	ck_assert_int_eq(journal_append(j, &r0), -1); /* 0 again */
	ck_assert_ptr_nonnull(strstr(error_last()->message, "cannot append turn 0: "));
	ck_assert_int_eq(row_count(j), before);

	record1(&r1);
	append_ok(j, &r1);
	ck_assert_int_eq(last_turn(j), 1);
	journal_close(j);
	buf_release(&err);
}
END_TEST

/* A failure late in the transaction (the last die) must take the turn row, the orders and
 * the earlier dice with it, and leave the journal usable. */
START_TEST(test_failed_append_writes_nothing)
{
	struct buf err = BUF_INIT;
	struct journal_record r0, r1, *g = NULL;
	struct journal *j = open_new("rollback.sqlite");
	struct die_record bad[3];
	long long before;

	record0(&r0);
	append_ok(j, &r0);
	before = row_count(j);

	record1(&r1);
	memcpy(bad, dice1, sizeof(bad));
	bad[2].value = 11; /* a d10 cannot show 11 */
	r1.dice = bad;
	ck_assert_int_eq(journal_append(j, &r1), -1);
	ck_assert_ptr_nonnull(
		strstr(error_last()->message, "journal: cannot append turn 1: die 2: "));
	ck_assert_ptr_nonnull(strstr(error_last()->message, "CHECK constraint failed"));
	ck_assert_int_eq(row_count(j), before);
	ck_assert_int_eq(last_turn(j), 0);

	memcpy(bad, dice1, sizeof(bad));
	bad[2].index = 3; /* a gap in the dice sequence */
	ck_assert_int_eq(journal_append(j, &r1), -1);
	ck_assert_ptr_nonnull(strstr(error_last()->message, "die 2: journal is append-only"));
	ck_assert_int_eq(row_count(j), before);

	memcpy(bad, dice1, sizeof(bad));
	bad[1].sides = UINT64_MAX; /* beyond SQLite's signed integers */
	bad[1].value = UINT64_MAX;
	ck_assert_int_eq(journal_append(j, &r1), -1);
	ck_assert_ptr_nonnull(strstr(error_last()->message, "die 1: "));
	ck_assert_int_eq(row_count(j), before);

	r1.dice = dice1;
	r1.events[1].player = NULL; /* a void order names whose it was */
	ck_assert_int_eq(journal_append(j, &r1), -1);
	r1.events[1].player = "defender";
	ck_assert_ptr_nonnull(strstr(error_last()->message, "event 1: "));
	ck_assert_int_eq(row_count(j), before);

	append_ok(j, &r1);
	ck_assert_msg(journal_read(j, 1, &g) == 0, "%s", error_last()->message);
	assert_record1(g);
	journal_record_free(g);
	journal_close(j);
	buf_release(&err);
}
END_TEST

/* Each statement an sqlite3 user might try; every one must be refused by the schema. */
static const char *const forbidden[] = {
	"UPDATE dice SET value = 6 WHERE turn = 1 AND idx = 2;",
	"DELETE FROM dice WHERE turn = 1 AND idx = 2;",
	"DELETE FROM dice;",
	"INSERT OR REPLACE INTO dice (turn, idx, sides, value, purpose)"
	" VALUES (1, 0, 6, 1, 'forged');",
	"REPLACE INTO dice VALUES (1, 2, 10, 10, 'forged');",
	"INSERT INTO dice (turn, idx, sides, value, purpose) VALUES (1, 4, 6, 1, 'gap');",
	"INSERT INTO dice (turn, idx, sides, value, purpose) VALUES (0, 0, 6, 1, 'old turn');",
	"UPDATE turns SET seed = NULL;",
	"DELETE FROM turns WHERE turn = 1;",
	"INSERT OR REPLACE INTO turns VALUES (1, NULL, NULL, NULL, NULL,"
	" 'ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff', 'forged', 0,"
	" NULL, NULL, 'ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff', NULL, NULL);",
	"INSERT INTO turns VALUES (3, NULL, NULL, NULL, NULL,"
	" 'ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff', 'gap', 0,"
	" NULL, NULL, 'ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff', NULL, NULL);",
	"INSERT OR REPLACE INTO orders VALUES (1, 'attacker', NULL, NULL);",
	"UPDATE orders SET bytes = x'00';",
	"DELETE FROM orders;",
	"INSERT OR REPLACE INTO events VALUES (1, 0, 'shooting', 'event', NULL, 0, 'forged');",
	"UPDATE events SET text = 'forged';",
	"DELETE FROM events;",
	"INSERT OR REPLACE INTO files VALUES (1, 'state.yaml',"
	" 'ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff', NULL);",
	"UPDATE files SET sha256 = 'ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff';",
	"UPDATE files SET bytes = x'00' WHERE turn = 0 AND path = 'campaign.yaml';",
	"DELETE FROM files;",
	"INSERT OR REPLACE INTO meta VALUES ('schema_version', '3');",
	"UPDATE meta SET value = '3';",
	"DELETE FROM meta;",
};

START_TEST(test_sqlite_shell_cannot_rewrite)
{
	struct buf err = BUF_INIT, out = BUF_INIT;
	struct journal_record r0, r1, *g = NULL;
	struct journal *j = open_new("shell.sqlite");
	char *path = test_path("shell.sqlite");
	long long before;

	record0(&r0);
	record1(&r1);
	append_ok(j, &r0);
	append_ok(j, &r1);
	before = row_count(j);

	/* The shell works and sees the data: a refusal below is the schema's, not a typo's. */
	ck_assert_int_eq(sqlite_cli(path, "SELECT group_concat(value) FROM dice;", &out), 0);
	ck_assert_str_eq(buf_str(&out), "4,6,1\n");

	const char *const *sql = forbidden;
	size_t n = sizeof(forbidden) / sizeof(forbidden[0]);
	for (size_t i = 0; i < n; i++) {
		/* The foreign keys on, as journal_open has them: a refusal must not depend on a
		 * pragma the shell leaves off, so half the statements run without. */
		char *s = xasprintf("%s%s", i % 2 ? "PRAGMA foreign_keys = ON;\n" : "", sql[i]);
		int rc = sqlite_cli(path, s, &out);
		ck_assert_msg(rc != 0, "accepted: %s", sql[i]);
		ck_assert_msg(strstr(buf_str(&out), "journal is append-only") != NULL,
			"refused for another reason: %s: %s", sql[i], buf_str(&out));
		free(s);
		ck_assert_int_eq(row_count(j), before);
	}

	ck_assert_msg(journal_read(j, 1, &g) == 0, "%s", error_last()->message);
	assert_record1(g);
	journal_record_free(g);
	journal_close(j);
	free(path);
	buf_release(&out);
	buf_release(&err);
}
END_TEST

/* A journal made before the MAX(...) + 1 triggers (dice_dense and events_dense counting the
 * turn's rows) gets the schema's triggers on open, keeps its rows, and still refuses gaps. */
START_TEST(test_old_dense_triggers_migrated)
{
	struct buf out = BUF_INIT;
	struct journal_record r0, r1, *g = NULL;
	struct journal *j = open_new("old.sqlite");
	char *path = test_path("old.sqlite");

	record0(&r0);
	append_ok(j, &r0);
	journal_close(j);
	ck_assert_int_eq(
		sqlite_cli(path,
			"DROP TRIGGER dice_dense; DROP TRIGGER events_dense;\n"
			"CREATE TRIGGER dice_dense BEFORE INSERT ON dice\n"
			"WHEN NEW.turn IS NOT (SELECT MAX(turn) FROM turns)\n"
			"\tOR NEW.idx IS NOT (SELECT COUNT(*) FROM dice WHERE turn = NEW.turn)\n"
			"BEGIN SELECT RAISE(ABORT, 'journal is append-only: dice'); END;\n"
			"CREATE TRIGGER events_dense BEFORE INSERT ON events\n"
			"WHEN NEW.turn IS NOT (SELECT MAX(turn) FROM turns)\n"
			"\tOR NEW.seq IS NOT (SELECT COUNT(*) FROM events WHERE turn = NEW.turn)\n"
			"BEGIN SELECT RAISE(ABORT, 'journal is append-only: events'); END;\n",
			&out),
		0);
	ck_assert_int_eq(sqlite_cli(path,
				 "SELECT count(*) FROM sqlite_master WHERE type = 'trigger'"
				 " AND sql LIKE '%COUNT(*)%';",
				 &out),
		0);
	ck_assert_str_eq(buf_str(&out), "2\n");

	ck_assert_msg(journal_open(&j, path, 0) == 0, "%s", error_last()->message);
	ck_assert_int_eq(
		sqlite_cli(path,
			"SELECT (SELECT count(*) FROM sqlite_master WHERE sql LIKE '%COUNT(*)%'),"
			" (SELECT count(*) FROM sqlite_master WHERE type = 'trigger'"
			" AND name IN ('dice_dense', 'events_dense') AND sql LIKE '%MAX(%) + 1%');",
			&out),
		0);
	ck_assert_str_eq(buf_str(&out), "0|2\n"); /* none counting, both MAX + 1 */
	record1(&r1);
	append_ok(j, &r1);
	ck_assert_msg(journal_read(j, 1, &g) == 0, "%s", error_last()->message);
	assert_record1(g);
	journal_record_free(g);
	journal_close(j);
	ck_assert_int_ne(sqlite_cli(path,
				 "INSERT INTO dice (turn, idx, sides, value, purpose)"
				 " VALUES (1, 4, 6, 1, 'gap');",
				 &out),
		0);
	ck_assert_ptr_nonnull(strstr(buf_str(&out), "journal is append-only"));
	free(path);
	buf_release(&out);
}
END_TEST

/* The schema of the database at path as rows "type|name|sql", sorted by type and name (a
 * migrated journal holds the same objects as a new one, made in another order). */
static void sorted_schema(const char *path, struct buf *out)
{
	ck_assert_int_eq(sqlite_cli(path,
				 "SELECT type, name, sql FROM sqlite_master"
				 " WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name;",
				 out),
		0);
}

/* A journal of schema_version 1 (tests/unit/journal-v1.sql, the schema before issue 38: a
 * copy of every committed file in files.bytes): read as it is when opened read-only (the
 * hashes of the bytes); opened for writing, migrated to schema_version 2 in place: the
 * hashes kept, the bytes dropped but the setup's campaign.yaml's, the space given back, the same schema as a
 * new journal's, and still append-only. */
START_TEST(test_v1_journal_migrated)
{
	struct buf out = BUF_INIT, ddl = BUF_INIT, fresh = BUF_INIT, got = BUF_INIT;
	struct journal_record r2, *g = NULL;
	struct journal *j = NULL;
	char *path = test_path("v1.sqlite"), *fresh_path = test_path("v2.sqlite");
	uint8_t want[FAIR_HASH_BYTES];
	struct stat st;
	static const char rows[] =
		"INSERT INTO turns VALUES (0, NULL, NULL, NULL, NULL,"
		" 'ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff', 'Setup', 0,"
		" NULL, NULL, '1111111111111111111111111111111111111111111111111111111111111111',"
		" NULL, NULL);\n"
		"INSERT INTO files VALUES (0, 'campaign.yaml', CAST('id: x\n' AS BLOB));\n"
		"INSERT INTO files VALUES (0, 'state.yaml', CAST('turn: 0\n' AS BLOB));\n"
		"INSERT INTO turns VALUES (1, "
		" '1111111111111111111111111111111111111111111111111111111111111111',"
		" '2222222222222222222222222222222222222222222222222222222222222222',"
		" '2222222222222222222222222222222222222222222222222222222222222222',"
		" '2222222222222222222222222222222222222222222222222222222222222222',"
		" 'ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff', 'Turn 1', 1,"
		" NULL, NULL, '2222222222222222222222222222222222222222222222222222222222222222',"
		" NULL, NULL);\n"
		"INSERT INTO files VALUES (1, 'maps/big.svg', zeroblob(400000));\n"
		"INSERT INTO files VALUES (1, 'state.yaml', CAST('turn: 1\n' AS BLOB));\n";

	read_file("tests/unit/journal-v1.sql", &ddl);
	buf_puts(&ddl, "PRAGMA journal_mode = WAL;\n");
	buf_puts(&ddl, rows);
	ck_assert_msg(sqlite_cli(path, buf_str(&ddl), &out) == 0, "%s", buf_str(&out));
	ck_assert_int_eq(stat(path, &st), 0);
	off_t before = st.st_size;

	/* read-only: not migrated, the hashes computed from the bytes */
	ck_assert_msg(journal_open_read(&j, path) == 0, "%s", error_last()->message);
	ck_assert_msg(journal_read(j, 1, &g) == 0, "%s", error_last()->message);
	ck_assert_uint_eq(g->n_files, 2);
	ck_assert_str_eq(g->files[1].path, "state.yaml");
	fair_sha256(want, "turn: 1\n", 8);
	ck_assert_int_eq(memcmp(g->file_sha256[1], want, FAIR_HASH_BYTES), 0);
	journal_record_free(g);
	journal_close(j);
	ck_assert_int_eq(sqlite_cli(path, "SELECT value FROM meta;", &out), 0);
	ck_assert_str_eq(buf_str(&out), "1\n");

	/* for writing: migrated */
	ck_assert_msg(journal_open(&j, path, 0) == 0, "%s", error_last()->message);
	ck_assert_msg(journal_read(j, 1, &g) == 0, "%s", error_last()->message);
	ck_assert_str_eq(g->files[0].path, "maps/big.svg");
	ck_assert_ptr_null(g->files[0].data);
	unsigned char *zeros = xcalloc(400000, 1);
	fair_sha256(want, zeros, 400000);
	free(zeros);
	ck_assert_int_eq(memcmp(g->file_sha256[0], want, FAIR_HASH_BYTES), 0);
	fair_sha256(want, "turn: 1\n", 8);
	ck_assert_int_eq(memcmp(g->file_sha256[1], want, FAIR_HASH_BYTES), 0);
	journal_record_free(g);
	ck_assert_msg(journal_read(j, 0, &g) == 0, "%s", error_last()->message);
	assert_bytes(g->files[0].data, g->files[0].len, (const unsigned char *)"id: x\n", 6);
	journal_record_free(g);
	record1(&r2);
	r2.turn = 2;
	append_ok(j, &r2);
	journal_close(j);

	ck_assert_int_eq(sqlite_cli(path,
				 "SELECT value FROM meta; SELECT group_concat(turn || ':' || path)"
				 " FROM files WHERE bytes IS NOT NULL; SELECT count(*) FROM files;",
				 &out),
		0);
	ck_assert_str_eq(buf_str(&out), "2\n0:campaign.yaml\n7\n");
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_msg(st.st_size < before / 2, "not given back: %lld bytes, %lld before",
		(long long)st.st_size, (long long)before);
	j = open_new("v2.sqlite");
	journal_close(j);
	sorted_schema(path, &got);
	sorted_schema(fresh_path, &fresh);
	ck_assert_str_eq(buf_str(&got), buf_str(&fresh));
	ck_assert_int_ne(sqlite_cli(path, "UPDATE files SET sha256 = sha256;", &out), 0);
	ck_assert_ptr_nonnull(strstr(buf_str(&out), "journal is append-only"));
	free(path);
	free(fresh_path);
	buf_release(&out);
	buf_release(&ddl);
	buf_release(&fresh);
	buf_release(&got);
}
END_TEST

START_TEST(test_open_errors)
{
	struct buf err = BUF_INIT, out = BUF_INIT;
	struct journal_record r0;
	struct journal *j = open_new("exists.sqlite");
	char *path = test_path("exists.sqlite");
	char *missing = test_path("missing.sqlite");
	char *other = test_path("other.sqlite");

	record0(&r0);
	append_ok(j, &r0);
	journal_close(j);

	/* create=1 must not adopt, let alone re-schema, an existing journal. */
	j = NULL;
	ck_assert_int_eq(journal_open(&j, path, 1), -1);
	ck_assert_ptr_null(j);
	ck_assert_ptr_nonnull(strstr(error_last()->message, "journal: cannot open '"));
	ck_assert_ptr_nonnull(strstr(error_last()->message, "File exists"));
	ck_assert_int_eq(journal_open(&j, path, 0), 0);
	ck_assert_int_eq(last_turn(j), 0);
	journal_close(j);

	ck_assert_int_eq(journal_open(&j, missing, 0), -1);
	ck_assert_ptr_null(j);
	ck_assert_int_eq(access(missing, F_OK), -1); /* and did not create it */

	ck_assert_int_eq(sqlite_cli(other, "CREATE TABLE t (x);", &out), 0);
	ck_assert_int_eq(journal_open(&j, other, 0), -1);
	ck_assert_ptr_nonnull(strstr(error_last()->message, "not an umpire journal"));
	ck_assert_ptr_null(strchr(error_last()->message, '\n'));

	free(path);
	free(missing);
	free(other);
	buf_release(&out);
	buf_release(&err);
}
END_TEST

/* Dice rows out of rowid order (a journal rewritten through the shell, triggers dropped):
 * read back in index order all the same, on a connection that read the turn before; and a
 * turn whose dice do not start at 0 gives exactly the rows it holds, in index order. */
START_TEST(test_dice_read_in_index_order)
{
	struct buf out = BUF_INIT;
	struct journal_record r0, r1, *g = NULL;
	struct journal *j = open_new("order.sqlite");
	char *path = test_path("order.sqlite");

	record0(&r0);
	record1(&r1);
	append_ok(j, &r0);
	append_ok(j, &r1);
	ck_assert_msg(journal_read(j, 1, &g) == 0, "%s", error_last()->message);
	assert_record1(g);
	journal_record_free(g);
	ck_assert_int_eq(
		sqlite_cli(path,
			"DROP TRIGGER dice_no_delete; DROP TRIGGER dice_dense;\n"
			"CREATE TEMP TABLE d AS SELECT * FROM dice WHERE turn = 1;\n"
			"DELETE FROM dice WHERE turn = 1;\n"
			"INSERT INTO dice SELECT * FROM d ORDER BY idx DESC;\n"
			"SELECT group_concat(idx) FROM (SELECT idx FROM dice ORDER BY rowid);\n",
			&out),
		0);
	ck_assert_str_eq(buf_str(&out), "2,1,0\n"); /* die 0 is the last row now */
	for (int k = 0; k < 2; k++) {
		ck_assert_msg(journal_read(j, 1, &g) == 0, "%s", error_last()->message);
		assert_record1(g);
		journal_record_free(g);
		ck_assert_int_eq(journal_read(j, 0, &g), 0);
		ck_assert_uint_eq(g->n_dice, 0);
		journal_record_free(g);
	}
	ck_assert_int_eq(sqlite_cli(path, "DELETE FROM dice WHERE turn = 1 AND idx = 0;", &out), 0);
	ck_assert_msg(journal_read(j, 1, &g) == 0, "%s", error_last()->message);
	ck_assert_uint_eq(g->n_dice, 2);
	for (size_t i = 0; i < 2; i++) {
		ck_assert_uint_eq(g->dice[i].index, i + 1);
		ck_assert_uint_eq(g->dice[i].sides, dice1[i + 1].sides);
		ck_assert_str_eq(g->dice[i].purpose, dice1[i + 1].purpose);
	}
	journal_record_free(g);
	journal_close(j);
	free(path);
	buf_release(&out);
}
END_TEST

/* Rows go 32 to an INSERT (journal.c BATCH_ROWS), the rest one by one: 100 dice come back
 * whole and in order; a refusal in a full batch (die 40 beyond SQLite's integers, die 70 a
 * d6 showing 7) or in the rest (die 99 out of sequence) names its row as a single insert
 * would, and writes nothing. Files rows take the SHA-256 the record gives, as given. */
START_TEST(test_batched_rows_and_given_hashes)
{
	enum { N = 100 };
	static const char *const hashes[] = { H1, H2, H3 }; /* not the files' own */
	static const size_t file_order[] = { 0, 2, 1 }; /* orders/…, reports/…, state.yaml */
	struct journal_record r0, r1, *g = NULL;
	struct journal *j = open_new("batch.sqlite");
	struct die_record dice[N];
	uint8_t given[3][FAIR_HASH_BYTES];
	long long before;

	record0(&r0);
	append_ok(j, &r0);
	before = row_count(j);
	record1(&r1);
	for (size_t i = 0; i < N; i++)
		dice[i] = (struct die_record){ i, 6, 1 + i % 6, "a batched die" };
	r1.dice = dice;
	r1.n_dice = N;
	for (size_t i = 0; i < 3; i++)
		set_hash(given[i], hashes[i]);
	r1.file_sha256 = given;

	dice[40].sides = dice[40].value = UINT64_MAX;
	ck_assert_int_eq(journal_append(j, &r1), -1);
	ck_assert_ptr_nonnull(strstr(error_last()->message,
		"journal: cannot append turn 1: die 40: index, sides or value exceeds 2^63-1"));
	dice[40].sides = 6;
	dice[40].value = 5;
	dice[70].value = 7;
	ck_assert_int_eq(journal_append(j, &r1), -1);
	ck_assert_ptr_nonnull(
		strstr(error_last()->message, "journal: cannot append turn 1: die 70: "));
	ck_assert_ptr_nonnull(strstr(error_last()->message, "CHECK constraint failed"));
	dice[70].value = 5;
	dice[99].index = 100;
	ck_assert_int_eq(journal_append(j, &r1), -1);
	ck_assert_ptr_nonnull(strstr(error_last()->message, "die 99: journal is append-only"));
	ck_assert_int_eq(row_count(j), before);
	ck_assert_int_eq(last_turn(j), 0);

	dice[99].index = 99;
	append_ok(j, &r1);
	ck_assert_msg(journal_read(j, 1, &g) == 0, "%s", error_last()->message);
	ck_assert_uint_eq(g->n_dice, N);
	for (size_t i = 0; i < N; i++) {
		ck_assert_uint_eq(g->dice[i].index, i);
		ck_assert_uint_eq(g->dice[i].value, dice[i].value);
		ck_assert_str_eq(g->dice[i].purpose, "a batched die");
	}
	ck_assert_uint_eq(g->n_orders, 3);
	ck_assert_uint_eq(g->n_events, 2);
	ck_assert_uint_eq(g->n_files, 3);
	for (size_t k = 0; k < 3; k++)
		assert_hash(g->file_sha256[k], hashes[file_order[k]]);
	journal_record_free(g);
	journal_close(j);
}
END_TEST

static Suite *journal_suite(void)
{
	Suite *s = suite_create("journal");
	TCase *tc = tcase_create("journal");

	tcase_add_unchecked_fixture(tc, root_setup, root_teardown);
	tcase_add_test(tc, test_schema_file_matches_embedded);
	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_turns_are_dense);
	tcase_add_test(tc, test_each_summary);
	tcase_add_test(tc, test_failed_append_writes_nothing);
	tcase_add_test(tc, test_batched_rows_and_given_hashes);
	tcase_add_test(tc, test_sqlite_shell_cannot_rewrite);
	tcase_add_test(tc, test_open_errors);
	tcase_add_test(tc, test_old_dense_triggers_migrated);
	tcase_add_test(tc, test_v1_journal_migrated);
	tcase_add_test(tc, test_dice_read_in_index_order);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(journal_suite)
