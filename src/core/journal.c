/* journal.c — the append-only SQLite journal: one transaction per turn holding its fairness
 * inputs, order files, dice, events and committed files; and reading a turn back in full.
 * With journal_migrate.c, the only file that reaches <sqlite3.h> (journal_int.h); the schema's
 * triggers, not this code, are what make the journal append-only, so a stray sqlite3 session
 * cannot rewrite history either. */
#include "core/journal_int.h"
#include "core/durable.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/banned.h"

/* schemas/journal.sql, verbatim (check_journal compares the databases both produce). */
/* The DDL is schemas/journal.sql itself, turned into a string literal at build time. */
const char journal_ddl[] =
#include "journal_sql.h"
	;

/* SQLite's user_version of every umpire journal: never set, so 0. */
#define JOURNAL_USER_VERSION 0
/* Other writers (a second umpire, an sqlite3 shell reading) hold the lock only briefly. */
#define JOURNAL_BUSY_TIMEOUT_MS 10000

/* The statements reading a turn back (journal_read_turn), prepared once per connection. */
enum read_stmt {
	R_BEGIN,
	R_COMMIT,
	R_TURN,
	R_ORDERS,
	R_DICE,
	R_DICE_SPAN,
	R_DICE_RUN,
	R_EVENTS,
	R_FILES,
	R_HEAD,
	R_COUNT
};

struct journal {
	sqlite3 *db;                 /* the open connection */
	int version;                 /* its schema_version (1 only when opened read-only) */
	char *path;                  /* as given to journal_open, for messages */
	sqlite3_stmt *read[R_COUNT]; /* NULL until first used; finalized by journal_close */
};

int journal_exec(sqlite3 *db, const char *sql)
{
	return sqlite3_exec(db, sql, NULL, NULL, NULL);
}

static int exec_sql(sqlite3 *db, const char *sql)
{
	return journal_exec(db, sql);
}

static void remove_db_files(const char *path)
{
	char *wal = xasprintf("%s-wal", path);
	char *shm = xasprintf("%s-shm", path);

	unlink(path);
	unlink(wal);
	unlink(shm);
	free(wal);
	free(shm);
}

/* Set by check_schema when the file is an umpire journal of another version: refused as bad
 * input (exit 65), not as "no campaign". */
static int other_version;

/* Checks the connection sees an umpire journal of a schema this code reads: SQLite's
 * user_version 0 (umpire never sets it; another value is another program's or a future
 * format's) and meta's schema_version from JOURNAL_SCHEMA_OLDEST to JOURNAL_SCHEMA_VERSION,
 * which goes to *version. */
static int check_schema(sqlite3 *db, struct buf *msg, int *version)
{
	sqlite3_stmt *st = NULL;
	int ret = -1, rc;

	other_version = 0;
	rc = sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL);
	if (rc != SQLITE_OK || sqlite3_step(st) != SQLITE_ROW) {
		buf_printf(msg, "not an umpire journal: %s", sqlite3_errmsg(db));
		goto done;
	}
	long long uv = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	st = NULL;
	if (uv != JOURNAL_USER_VERSION) {
		other_version = 1;
		buf_printf(msg,
			"its user_version is %lld; this umpire reads journals of user_version %d and schema_version %d or older only (written by another program or a newer umpire?)",
			uv, JOURNAL_USER_VERSION, JOURNAL_SCHEMA_VERSION);
		goto done;
	}

	rc = sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = 'schema_version'", -1, &st,
		NULL);
	if (rc != SQLITE_OK) {
		buf_printf(msg, "not an umpire journal: %s", sqlite3_errmsg(db));
		goto done;
	}
	rc = sqlite3_step(st);
	if (rc == SQLITE_DONE) {
		buf_puts(msg, "not an umpire journal: meta has no schema_version");
		goto done;
	}
	if (rc != SQLITE_ROW) {
		buf_puts(msg, sqlite3_errmsg(db));
		goto done;
	}
	const char *v = (const char *)sqlite3_column_text(st, 0);
	*version = 0;
	for (int k = JOURNAL_SCHEMA_OLDEST; v && k <= JOURNAL_SCHEMA_VERSION; k++) {
		char want[16];
		snprintf(want, sizeof want, "%d", k);
		if (strcmp(v, want) == 0)
			*version = k;
	}
	if (!*version) {
		buf_printf(msg, "schema_version '%s' is not one this umpire reads ('%d' to '%d')",
			v ? v : "", JOURNAL_SCHEMA_OLDEST, JOURNAL_SCHEMA_VERSION);
		goto done;
	}
	ret = 0;
done:
	sqlite3_finalize(st);
	return ret;
}

/* WAL survives crashes with FULL sync on commit; foreign keys tie every row to its turn. */
static int set_pragmas(sqlite3 *db, struct buf *msg)
{
	sqlite3_stmt *st = NULL;
	int ret = -1;

	sqlite3_busy_timeout(db, JOURNAL_BUSY_TIMEOUT_MS);
	if (exec_sql(db, "PRAGMA foreign_keys = ON") != SQLITE_OK ||
		exec_sql(db, "PRAGMA synchronous = FULL") != SQLITE_OK) {
		buf_puts(msg, sqlite3_errmsg(db));
		goto done;
	}
	/* journal_mode answers with the mode in force, which is the only way to see it worked. */
	if (sqlite3_prepare_v2(db, "PRAGMA journal_mode = WAL", -1, &st, NULL) != SQLITE_OK ||
		sqlite3_step(st) != SQLITE_ROW) {
		buf_puts(msg, sqlite3_errmsg(db));
		goto done;
	}
	const char *mode = (const char *)sqlite3_column_text(st, 0);
	if (!mode || strcmp(mode, "wal") != 0) {
		buf_printf(msg, "cannot switch to WAL mode (mode is '%s')", mode ? mode : "");
		goto done;
	}
	ret = 0;
done:
	sqlite3_finalize(st);
	return ret;
}

static int apply_schema(sqlite3 *db, struct buf *msg)
{
	if (exec_sql(db, "BEGIN IMMEDIATE") != SQLITE_OK) {
		buf_puts(msg, sqlite3_errmsg(db));
		return -1;
	}
	if (exec_sql(db, journal_ddl) != SQLITE_OK || exec_sql(db, "COMMIT") != SQLITE_OK) {
		buf_puts(msg, sqlite3_errmsg(db));
		if (!sqlite3_get_autocommit(db))
			exec_sql(db, "ROLLBACK");
		return -1;
	}
	return 0;
}

/* A journal of schema version owning *db (taken: *db is NULL after) and a copy of path. */
static struct journal *journal_wrap(sqlite3 **db, const char *path, int version)
{
	struct journal *j = xcalloc(1, sizeof(*j));
	j->db = *db;
	j->version = version;
	j->path = xstrdup(path);
	*db = NULL;
	return j;
}

int journal_open(struct journal **out, const char *path, int create)
{
	struct buf msg = BUF_INIT;
	sqlite3 *db = NULL;
	int ret = -1, made = 0, rc, version = 0;

	*out = NULL;
	if (create) {
		/* O_EXCL: creating must never adopt (and re-schema) someone's existing file. */
		int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd < 0) {
			buf_printf(&msg, "%s", strerror(errno));
			goto done;
		}
		close(fd);
		made = 1;
	}
	rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		buf_puts(&msg, db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
		goto done;
	}
	if (set_pragmas(db, &msg) != 0)
		goto done;
	if (create && apply_schema(db, &msg) != 0)
		goto done;
	if (check_schema(db, &msg, &version) != 0 || journal_migrate(db, &version, &msg) != 0)
		goto done;

	*out = journal_wrap(&db, path, version);
	ret = 0;
done:
	if (ret != 0) {
		error_set(other_version ? ERROR_INPUT : ERROR_OS, "journal: cannot open '%s': %s",
			path, buf_str(&msg));
		sqlite3_close(db);
		if (made)
			remove_db_files(path);
	}
	buf_release(&msg);
	return ret;
}

/* "file:PATH?immutable=1", PATH percent-encoded where a URI needs it. */
static char *immutable_uri(const char *path)
{
	struct buf u = BUF_INIT;

	buf_puts(&u, "file:");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			(*p >= '0' && *p <= '9') || strchr("/._-~", *p))
			buf_append(&u, p, 1);
		else
			buf_printf(&u, "%%%02X", *p);
	}
	buf_puts(&u, "?immutable=1");
	return buf_detach(&u);
}

/* A read-only connection to path checked to be an umpire journal (its schema version in
 * *version); 0 or -1 with msg. */
static int open_read_only(sqlite3 **db, const char *path, int uri, struct buf *msg, int *version)
{
	int rc = sqlite3_open_v2(path, db,
		SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | (uri ? SQLITE_OPEN_URI : 0), NULL);

	if (rc != SQLITE_OK) {
		buf_puts(msg, *db ? sqlite3_errmsg(*db) : sqlite3_errstr(rc));
		return -1;
	}
	sqlite3_busy_timeout(*db, JOURNAL_BUSY_TIMEOUT_MS);
	return check_schema(*db, msg, version);
}

int journal_open_read(struct journal **out, const char *path)
{
	struct buf msg = BUF_INIT;
	sqlite3 *db = NULL;
	int ret = -1, version = 0;

	*out = NULL;
	if (access(path, R_OK) != 0) {
		buf_puts(&msg, strerror(errno));
		goto done;
	}
	if (open_read_only(&db, path, 0, &msg, &version) < 0) {
		/* A WAL journal on a read-only file system: its -shm cannot be made. Nothing can
		 * write there either, so the file is read as it stands. */
		char *uri = immutable_uri(path);
		sqlite3_close(db);
		db = NULL;
		buf_clear(&msg);
		int r = open_read_only(&db, uri, 1, &msg, &version);
		free(uri);
		if (r < 0)
			goto done;
	}
	*out = journal_wrap(&db, path, version);
	ret = 0;
done:
	if (ret != 0) {
		error_set(other_version ? ERROR_INPUT : ERROR_OS, "journal: cannot open '%s': %s",
			path, buf_str(&msg));
		sqlite3_close(db);
	}
	buf_release(&msg);
	return ret;
}

void journal_close(struct journal *j)
{
	if (!j)
		return;
	for (int i = 0; i < R_COUNT; i++)
		sqlite3_finalize(j->read[i]);
	sqlite3_close(j->db);
	free(j->path);
	free(j);
}

/* A hash as the lower-case hex SQLite keeps (SQLITE_TRANSIENT: the text is on our stack);
 * absent hashes (no key at setup, no order file) bind NULL, not ''. */
static int bind_hash(sqlite3_stmt *st, int i, const uint8_t *hash, int present)
{
	char hex[2 * FAIR_HASH_BYTES + 1];

	if (!present)
		return sqlite3_bind_null(st, i);
	hex_encode(hex, hash, FAIR_HASH_BYTES);
	return sqlite3_bind_text(st, i, hex, -1, SQLITE_TRANSIENT);
}

static int bind_text_or_null(sqlite3_stmt *st, int i, const char *s)
{
	if (!s)
		return sqlite3_bind_null(st, i);
	return sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
}

/* NULL data binds SQL NULL; an empty but present file binds an empty BLOB (bind_blob with
 * a NULL pointer would turn it into NULL, losing "sent an empty file"). */
static int bind_bytes(sqlite3_stmt *st, int i, const unsigned char *data, size_t len)
{
	if (!data)
		return sqlite3_bind_null(st, i);
	if (len == 0)
		return sqlite3_bind_zeroblob(st, i, 0);
	return sqlite3_bind_blob64(st, i, data, (sqlite3_uint64)len, SQLITE_STATIC);
}

/* Steps an INSERT to completion and resets it for the next row. */
static int insert_row(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* The statements journal_append prepares once per turn, one per table. */
enum { S_TURNS, S_ORDERS, S_DICE, S_EVENTS, S_FILES, S_COUNT };

/* Which row a failure names: set per row, written out only on failure (a big turn's 10,000
 * rows each formatted their name before). */
enum row_kind { ROW_NONE, ROW_ORDER, ROW_DIE, ROW_EVENT, ROW_FILE };

struct append {
	sqlite3_stmt *st[S_COUNT];
	sqlite3_stmt *many[S_COUNT]; /* BATCH_ROWS rows at once, for a table of as many */
	enum row_kind kind;          /* the row being inserted: kind, and its index or name */
	size_t row;
	const char *name;
	const char *own; /* a failure of ours rather than SQLite's */
};

/* "die 3: ", "file 'state.yaml': " ...: the row a failure names, as the message gives it. */
static void name_row(struct buf *where, const struct append *a)
{
	const char *s = a->name ? a->name : "";

	switch (a->kind) {
	case ROW_NONE:
		break;
	case ROW_ORDER:
		buf_printf(where, "order of '%s': ", s);
		break;
	case ROW_DIE:
		buf_printf(where, "die %zu: ", a->row);
		break;
	case ROW_EVENT:
		buf_printf(where, "event %zu: ", a->row);
		break;
	case ROW_FILE:
		buf_printf(where, "file '%s': ", s);
		break;
	}
}

static int append_turn_row(struct append *a, const struct journal_record *r)
{
	sqlite3_stmt *st = a->st[S_TURNS];

	sqlite3_bind_int(st, 1, r->turn);
	/* The setup (turn 0) has no key, digest, beacon or seed. */
	bind_hash(st, 2, r->key, r->turn > 0);
	bind_hash(st, 3, r->orders_digest, r->turn > 0);
	bind_hash(st, 4, r->beacon, r->turn > 0);
	bind_hash(st, 5, r->seed, r->turn > 0);
	bind_hash(st, 6, r->state_sha256, 1);
	bind_text_or_null(st, 7, r->summary);
	sqlite3_bind_int64(st, 8, r->processed_at);
	bind_text_or_null(st, 9, r->beacon_value);
	bind_text_or_null(st, 10, r->beacon_round);
	bind_hash(st, 11, r->journal_head, 1);
	bind_text_or_null(st, 12, r->commit_id[0] ? r->commit_id : NULL);
	bind_text_or_null(st, 13, r->beacon_signature);
	return insert_row(st);
}

/* Binds row i of one table (the turn as ?1 included) and names it in a (kind, row, name): 0,
 * or -1 for a row SQLite cannot hold (a->own says why). */
typedef int (*bind_row_fn)(struct append *a, sqlite3_stmt *st, const struct journal_record *r,
	size_t i, int at);

static int order_bind(struct append *a, sqlite3_stmt *st, const struct journal_record *r, size_t i,
	int at)
{
	const struct journal_order *o = &r->orders[i];

	a->kind = ROW_ORDER;
	a->name = o->player;
	bind_text_or_null(st, at + 2, o->player);
	bind_hash(st, at + 3, o->sha256, o->has_file);
	bind_bytes(st, at + 4,
		o->has_file ? (o->bytes ? o->bytes : (const unsigned char *)"") : NULL, o->len);
	return 0;
}

static int die_bind(struct append *a, sqlite3_stmt *st, const struct journal_record *r, size_t i,
	int at)
{
	const struct die_record *d = &r->dice[i];

	a->kind = ROW_DIE;
	a->row = i;
	/* SQLite integers are signed 64-bit; no rule rolls a die that large. */
	if (d->index > INT64_MAX || d->sides > INT64_MAX || d->value > INT64_MAX) {
		a->own = "index, sides or value exceeds 2^63-1";
		return -1;
	}
	sqlite3_bind_int64(st, at + 2, (sqlite3_int64)d->index);
	sqlite3_bind_int64(st, at + 3, (sqlite3_int64)d->sides);
	sqlite3_bind_int64(st, at + 4, (sqlite3_int64)d->value);
	bind_text_or_null(st, at + 5, d->purpose);
	return 0;
}

static int event_bind(struct append *a, sqlite3_stmt *st, const struct journal_record *r, size_t i,
	int at)
{
	const struct event *e = &r->events[i];

	a->kind = ROW_EVENT;
	a->row = i;
	sqlite3_bind_int64(st, at + 2, (sqlite3_int64)i);
	bind_text_or_null(st, at + 3, e->phase);
	bind_text_or_null(st, at + 4, event_kind_name(e->kind));
	bind_text_or_null(st, at + 5, e->player);
	sqlite3_bind_int(st, at + 6, e->order_index);
	bind_text_or_null(st, at + 7, e->text);
	return 0;
}

/* A committed file's row: its hash, which is what checking git needs (issue 38: git holds
 * the bytes, and the recovery reads them there); its bytes too for the setup's campaign.yaml
 * only, which the journal's identity check reads (docs/journal.md). */
static int file_bind(struct append *a, sqlite3_stmt *st, const struct journal_record *r, size_t i,
	int at)
{
	static const unsigned char empty[1];
	const struct file *f = &r->files[i];
	uint8_t h[FAIR_HASH_BYTES];

	a->kind = ROW_FILE;
	a->name = f->path;
	bind_text_or_null(st, at + 2, f->path);
	if (r->file_sha256)
		memcpy(h, r->file_sha256[i], FAIR_HASH_BYTES);
	else
		fair_sha256(h, f->data ? (const void *)f->data : empty, f->len);
	bind_hash(st, at + 3, h, 1);
	/* A file's bytes are never "absent": an empty file is an empty BLOB. */
	int keep = r->turn == 0 && f->path && strcmp(f->path, JOURNAL_SETUP_KEPT) == 0;
	bind_bytes(st, at + 4, keep ? (f->data ? f->data : empty) : NULL, f->len);
	return 0;
}

/* Rows go BATCH_ROWS to an INSERT statement (one statement transaction, one reset, for as many
 * rows: a big turn's 10,000 dice each paid them); the rest, and a batch that fails, one by one
 * through the single-row statement, so a failure names its row as before. */
enum { BATCH_ROWS = 32 };

/* *st: the INSERT of BATCH_ROWS rows that one is for one (its " VALUES (?1, ...)" repeated). */
static int prepare_batch(sqlite3 *db, const char *one, sqlite3_stmt **st)
{
	const char *values = strstr(one, " VALUES ");
	struct buf sql = BUF_INIT, row = BUF_INIT;
	int cols = 0;

	assert(values);
	for (const char *p = values; *p; p++)
		cols += *p == '?';
	buf_puts(&row, "(?");
	for (int k = 1; k < cols; k++)
		buf_puts(&row, ", ?");
	buf_puts(&row, ")");
	buf_append(&sql, one, (size_t)(values - one));
	buf_puts(&sql, " VALUES ");
	for (int i = 0; i < BATCH_ROWS; i++)
		buf_printf(&sql, "%s%s", i ? ", " : "", buf_str(&row));
	int rc = sqlite3_prepare_v2(db, buf_str(&sql), -1, st, NULL);
	buf_release(&sql);
	buf_release(&row);
	return rc;
}

/* Inserts n rows of one table (s, one of S_*; one: its single-row INSERT), each bound by bind.
 * A SQLite result code. */
static int append_rows(struct append *a, sqlite3 *db, int s, const char *one, size_t n,
	bind_row_fn bind, const struct journal_record *r)
{
	sqlite3_stmt *st = a->st[s], *many = NULL;
	int rc = SQLITE_OK, cols = sqlite3_bind_parameter_count(st);
	size_t i = 0;

	if (n >= BATCH_ROWS)
		rc = prepare_batch(db, one, &a->many[s]);
	many = a->many[s];
	for (; rc == SQLITE_OK && many && n - i >= BATCH_ROWS; i += BATCH_ROWS) {
		int bad = 0;
		for (size_t k = 0; k < BATCH_ROWS && !bad; k++) {
			sqlite3_bind_int(many, (int)k * cols + 1, r->turn);
			bad = bind(a, many, r, i + k, (int)k * cols) < 0;
		}
		if (!bad && insert_row(many) == SQLITE_OK)
			continue;
		sqlite3_reset(many);
		sqlite3_clear_bindings(many);
		a->own = NULL;
		/* The batch is undone (its statement aborted); the transaction must still be open
		 * for its rows to go again one by one. */
		if (sqlite3_get_autocommit(db))
			return SQLITE_ERROR;
		break;
	}
	for (; i < n && rc == SQLITE_OK; i++) {
		sqlite3_bind_int(st, 1, r->turn);
		if (bind(a, st, r, i, 0) < 0)
			return SQLITE_ERROR;
		rc = insert_row(st);
	}
	return rc;
}

int journal_append(struct journal *j, const struct journal_record *r)
{
	static const char *const sql[] = {
		"INSERT INTO turns (turn, key, orders_digest, beacon, seed, state_sha256, summary,"
		" processed_at, beacon_value, beacon_round, journal_head, commit_id, beacon_signature)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
		"INSERT INTO orders (turn, player, sha256, bytes) VALUES (?1, ?2, ?3, ?4)",
		"INSERT INTO dice (turn, idx, sides, value, purpose) VALUES (?1, ?2, ?3, ?4, ?5)",
		"INSERT INTO events (turn, seq, phase, kind, player, order_index, text)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
		"INSERT INTO files (turn, path, sha256, bytes) VALUES (?1, ?2, ?3, ?4)",
	};
	struct append a = { .kind = ROW_NONE };
	struct buf where = BUF_INIT;
	sqlite3 *db = j->db;
	int rc;
	size_t i;

	rc = exec_sql(db, "BEGIN IMMEDIATE");
	for (i = 0; i < S_COUNT && rc == SQLITE_OK; i++)
		rc = sqlite3_prepare_v2(db, sql[i], -1, &a.st[i], NULL);
	if (rc == SQLITE_OK)
		rc = append_turn_row(&a, r);
	if (rc == SQLITE_OK)
		rc = append_rows(&a, db, S_ORDERS, sql[S_ORDERS], r->n_orders, order_bind, r);
	if (rc == SQLITE_OK)
		rc = append_rows(&a, db, S_DICE, sql[S_DICE], r->n_dice, die_bind, r);
	if (rc == SQLITE_OK)
		rc = append_rows(&a, db, S_EVENTS, sql[S_EVENTS], r->n_events, event_bind, r);
	if (rc == SQLITE_OK)
		rc = append_rows(&a, db, S_FILES, sql[S_FILES], r->n_files, file_bind, r);
	if (rc == SQLITE_OK) {
		a.kind = ROW_NONE;
		rc = exec_sql(db, "COMMIT");
	}
	/* The message first: finalizing and rolling back overwrite sqlite3_errmsg. */
	if (rc != SQLITE_OK) {
		name_row(&where, &a);
		error_set(ERROR_OS, "journal: cannot append turn %d: %s%s", r->turn,
			buf_str(&where), a.own ? a.own : sqlite3_errmsg(db));
	}
	for (i = 0; i < S_COUNT; i++) {
		sqlite3_finalize(a.st[i]);
		sqlite3_finalize(a.many[i]);
	}
	if (rc != SQLITE_OK && !sqlite3_get_autocommit(db))
		exec_sql(db, "ROLLBACK");
	buf_release(&where);
	if (rc != SQLITE_OK)
		return -1;
	durable_point("journal");
	return 0;
}

int journal_last_turn(struct journal *j, int *out)
{
	sqlite3_stmt *st = NULL;
	int ret = -1;

	*out = -1;
	if (sqlite3_prepare_v2(j->db, "SELECT MAX(turn) FROM turns", -1, &st, NULL) != SQLITE_OK ||
		sqlite3_step(st) != SQLITE_ROW) {
		error_set(ERROR_OS, "journal: cannot read the last turn: %s",
			sqlite3_errmsg(j->db));
		goto done;
	}
	if (sqlite3_column_type(st, 0) != SQLITE_NULL)
		*out = sqlite3_column_int(st, 0);
	ret = 0;
done:
	sqlite3_finalize(st);
	return ret;
}

static char *column_strdup(sqlite3_stmt *st, int col)
{
	const unsigned char *s = sqlite3_column_text(st, col);

	return s ? xstrdup((const char *)s) : NULL;
}

/* A hex column as hash bytes: 1 read, 0 NULL (out zeroed). The schema's CHECKs keep the
 * text 64 lower-case hex digits, so anything else is a damaged journal: -1. */
static int column_hash(uint8_t out[FAIR_HASH_BYTES], sqlite3_stmt *st, int col)
{
	const unsigned char *s = sqlite3_column_text(st, col);

	memset(out, 0, FAIR_HASH_BYTES);
	if (!s)
		return 0;
	return hex_decode(out, FAIR_HASH_BYTES, (const char *)s) == 0 ? 1 : -1;
}

/* A BLOB column as a malloc'd copy with a NUL after it (handy for text); NULL stays NULL. */
static unsigned char *column_bytes(sqlite3_stmt *st, int col, size_t *len)
{
	unsigned char *p;
	const void *data;
	size_t n;

	*len = 0;
	if (sqlite3_column_type(st, col) == SQLITE_NULL)
		return NULL;
	data = sqlite3_column_blob(st, col);
	n = (size_t)sqlite3_column_bytes(st, col);
	p = xmalloc(n + 1);
	if (n)
		memcpy(p, data, n);
	p[n] = 0;
	*len = n;
	return p;
}

/* The text of each read statement; R_TURN's depends on the journal (read_stmt). */
static const char *const read_sql[R_COUNT] = {
	[R_BEGIN] = "BEGIN",
	[R_COMMIT] = "COMMIT",
	[R_ORDERS] = "SELECT player, sha256, bytes FROM orders WHERE turn = ?1 ORDER BY player",
	[R_DICE] = "SELECT idx, sides, value, purpose FROM dice WHERE turn = ?1 ORDER BY idx",
	[R_DICE_SPAN] = "SELECT (SELECT rowid FROM dice WHERE turn = ?1 AND idx = 0),"
			" (SELECT MIN(idx) FROM dice WHERE turn = ?1),"
			" (SELECT MAX(idx) FROM dice WHERE turn = ?1)",
	[R_DICE_RUN] = "SELECT sides, value, purpose FROM dice"
		       " WHERE rowid >= ?2 AND rowid < ?3 AND +turn = ?1 AND +idx = rowid - ?2",
	[R_EVENTS] = "SELECT phase, kind, player, order_index, text FROM events"
		     " WHERE turn = ?1 ORDER BY seq",
	[R_FILES] = "SELECT path, sha256, bytes FROM files WHERE turn = ?1 ORDER BY path",
	[R_HEAD] = "SELECT journal_head FROM turns WHERE turn = ?1",
};

/* j's statement `which` into *st, prepared on first use and kept for the connection (replay
 * and verify read every turn through the same few statements), the turn bound as ?1 when it
 * takes one. The caller resets it after use. Returns SQLITE_OK or SQLite's error code (the
 * message in sqlite3_errmsg). */
static int read_stmt(struct journal *j, enum read_stmt which, int turn, sqlite3_stmt **st)
{
	int rc = SQLITE_OK;

	*st = j->read[which];
	if (!*st) {
		/* A journal opened read-only is not migrated: without the column, no signature;
		 * schema_version 1's files rows, their bytes (hashed as read: file_hash). */
		const char *sql =
			which == R_FILES && j->version == 1 ?
				"SELECT path, NULL, bytes FROM files WHERE turn = ?1 ORDER BY path" :
			which != R_TURN ?
				read_sql[which] :
			journal_has_signature_column(j->db) > 0 ?
				"SELECT key, orders_digest, beacon, seed, state_sha256, summary,"
				" processed_at, beacon_value, beacon_round, journal_head, commit_id,"
				" beacon_signature FROM turns WHERE turn = ?1" :
				"SELECT key, orders_digest, beacon, seed, state_sha256, summary,"
				" processed_at, beacon_value, beacon_round, journal_head, commit_id,"
				" NULL FROM turns WHERE turn = ?1";
		rc = sqlite3_prepare_v3(j->db, sql, -1, SQLITE_PREPARE_PERSISTENT, st, NULL);
		if (rc != SQLITE_OK) {
			sqlite3_finalize(*st);
			*st = NULL;
			return rc;
		}
		j->read[which] = *st;
	}
	if (sqlite3_bind_parameter_count(*st) > 0)
		rc = sqlite3_bind_int(*st, 1, turn);
	return rc;
}

#define GROW(v, n, cap) \
	do { \
		if ((n) == (cap)) { \
			(cap) = (cap) ? 2 * (cap) : 16; \
			(v) = xrealloc((v), (cap) * sizeof(*(v))); \
		} \
	} while (0)

/* The readers of journal_read, one per table: each fills its part of r and returns 0, or sets
 * the error and returns -1 (a SQLite failure, or a hash that is not 64 hex digits). st (may be
 * NULL) is reset, ready for the next turn. */
static int read_failed(sqlite3 *db, sqlite3_stmt *st, int turn, int damaged)
{
	if (damaged)
		error_set(ERROR_INPUT, "journal: turn %d holds a hash that is not 64 hex digits",
			turn);
	else
		error_set(ERROR_OS, "journal: cannot read turn %d: %s", turn, sqlite3_errmsg(db));
	sqlite3_reset(st);
	return -1;
}

/* The turns row; ERROR_NOTFOUND when the journal has no such turn. */
static int read_turn_row(struct journal *j, int turn, struct journal_record *r)
{
	sqlite3_stmt *st = NULL;
	int rc = read_stmt(j, R_TURN, turn, &st);

	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc == SQLITE_DONE) {
		sqlite3_reset(st);
		error_set(ERROR_MISSING, "journal: there is no turn %d", turn);
		return ERROR_NOTFOUND;
	}
	if (rc != SQLITE_ROW)
		return read_failed(j->db, st, turn, 0);
	r->turn = turn;
	if (column_hash(r->key, st, 0) < 0 || column_hash(r->orders_digest, st, 1) < 0 ||
		column_hash(r->beacon, st, 2) < 0 || column_hash(r->seed, st, 3) < 0 ||
		column_hash(r->state_sha256, st, 4) < 0 || column_hash(r->journal_head, st, 9) < 0)
		return read_failed(j->db, st, turn, 1);
	r->summary = column_strdup(st, 5);
	r->processed_at = sqlite3_column_int64(st, 6);
	r->beacon_value = column_strdup(st, 7);
	r->beacon_round = column_strdup(st, 8);
	r->beacon_signature = column_strdup(st, 11);
	if (sqlite3_column_type(st, 10) != SQLITE_NULL)
		snprintf(r->commit_id, sizeof(r->commit_id), "%s",
			(const char *)sqlite3_column_text(st, 10));
	sqlite3_reset(st);
	return 0;
}

/* What the row readers share while one table is read: the array's capacity, and the dice
 * purposes as one block (offsets into it; pointers once every row is in). */
struct read_rows {
	size_t cap;
	struct buf purposes;
	size_t *offset; /* die i's purpose at purposes.data + offset[i] - 1; 0: NULL */
};

/* One row of a table into r: 0, or -1 for a hash that is not 64 hex digits. */
typedef int (*read_row_fn)(sqlite3_stmt *st, struct journal_record *r, struct read_rows *rr);

static int order_row(sqlite3_stmt *st, struct journal_record *r, struct read_rows *rr)
{
	GROW(r->orders, r->n_orders, rr->cap);
	struct journal_order *o = &r->orders[r->n_orders++];
	memset(o, 0, sizeof(*o));
	o->player = column_strdup(st, 0);
	o->has_file = column_hash(o->sha256, st, 1);
	if (o->has_file < 0)
		return -1;
	o->bytes = column_bytes(st, 2, &o->len);
	return 0;
}

/* Die `index` of r from st's columns col (sides), col + 1 (value), col + 2 (purpose). A dense
 * turn holds thousands of dice: their purposes go into one block, not one allocation each. */
static void add_die(struct journal_record *r, struct read_rows *rr, uint64_t index,
	sqlite3_stmt *st, int col)
{
	size_t cap = rr->cap;
	GROW(r->dice, r->n_dice, rr->cap);
	if (rr->cap != cap)
		rr->offset = xrealloc(rr->offset, rr->cap * sizeof(*rr->offset));
	struct die_record *d = &r->dice[r->n_dice];
	d->index = index;
	d->sides = (uint64_t)sqlite3_column_int64(st, col);
	d->value = (uint64_t)sqlite3_column_int64(st, col + 1);
	d->purpose = NULL;
	const unsigned char *p = sqlite3_column_text(st, col + 2);
	rr->offset[r->n_dice++] = p ? rr->purposes.len + 1 : 0;
	if (p)
		buf_append(&rr->purposes, p, (size_t)sqlite3_column_bytes(st, col + 2) + 1);
}

static int die_row(sqlite3_stmt *st, struct journal_record *r, struct read_rows *rr)
{
	add_die(r, rr, (uint64_t)sqlite3_column_int64(st, 0), st, 1);
	return 0;
}

static int event_row(sqlite3_stmt *st, struct journal_record *r, struct read_rows *rr)
{
	const unsigned char *kind = sqlite3_column_text(st, 1);
	GROW(r->events, r->n_events, rr->cap);
	struct event *e = &r->events[r->n_events++];
	memset(e, 0, sizeof(*e));
	e->phase = column_strdup(st, 0);
	e->kind = kind && strcmp((const char *)kind, "void") == 0 ? EVENT_VOID : EVENT_EVENT;
	e->player = column_strdup(st, 2);
	e->order_index = sqlite3_column_int(st, 3);
	e->text = column_strdup(st, 4);
	return 0;
}

/* A files row's hash (column 1), or that of its bytes (column 2) in a journal of
 * schema_version 1, read-only. 0, or -1 when it is not 64 hex digits. */
static int file_hash(uint8_t out[FAIR_HASH_BYTES], sqlite3_stmt *st)
{
	if (sqlite3_column_type(st, 1) == SQLITE_NULL) {
		const void *p = sqlite3_column_blob(st, 2);
		fair_sha256(out, p ? p : "", (size_t)sqlite3_column_bytes(st, 2));
		return 0;
	}
	return column_hash(out, st, 1) == 1 ? 0 : -1;
}

static int file_row(sqlite3_stmt *st, struct journal_record *r, struct read_rows *rr)
{
	size_t cap = rr->cap;
	GROW(r->files, r->n_files, rr->cap);
	if (rr->cap != cap)
		r->file_sha256 = xrealloc(r->file_sha256, rr->cap * sizeof(*r->file_sha256));
	struct file *f = &r->files[r->n_files];
	f->path = column_strdup(st, 0);
	f->data = column_bytes(st, 2, &f->len);
	r->n_files++;
	return file_hash(r->file_sha256[r->n_files - 1], st);
}

/* The dice purposes read (die_row) into r: one block r owns, each purpose pointing into it. */
static void take_purposes(struct journal_record *r, struct read_rows *rr)
{
	if (!rr->offset)
		return;
	r->purposes = buf_detach(&rr->purposes);
	for (size_t i = 0; i < r->n_dice; i++)
		r->dice[i].purpose = rr->offset[i] ? r->purposes + rr->offset[i] - 1 : NULL;
}

/* Every row statement `which` selects for turn, each through row into r. */
static int read_rows(struct journal *j, int turn, enum read_stmt which, read_row_fn row,
	struct journal_record *r)
{
	struct read_rows rr = { 0, BUF_INIT, NULL };
	sqlite3_stmt *st = NULL;
	int rc = read_stmt(j, which, turn, &st), ret = 0;

	if (rc != SQLITE_OK)
		return read_failed(j->db, st, turn, 0);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (row(st, r, &rr) < 0)
			break;
	if (rc == SQLITE_ROW)
		ret = read_failed(j->db, st, turn, 1);
	else if (rc != SQLITE_DONE)
		ret = read_failed(j->db, st, turn, 0);
	sqlite3_reset(st);
	take_purposes(r, &rr);
	buf_release(&rr.purposes);
	free(rr.offset);
	return ret;
}

/* Where turn's dice lie: *first the rowid of die 0, *n = MAX(idx) + 1. Returns 1 when the
 * turn has dice numbered from 0, 0 when it has none (*n = 0) or they do not start at 0 (*n =
 * SIZE_MAX), -1 on a SQLite failure. */
static int dice_span(struct journal *j, int turn, sqlite3_int64 *first, size_t *n)
{
	sqlite3_stmt *st = NULL;
	int rc = read_stmt(j, R_DICE_SPAN, turn, &st), ret = 0;

	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc != SQLITE_ROW)
		return read_failed(j->db, st, turn, 0);
	*n = sqlite3_column_type(st, 2) == SQLITE_NULL ? 0 : SIZE_MAX;
	if (sqlite3_column_type(st, 0) != SQLITE_NULL && sqlite3_column_int64(st, 1) == 0 &&
		sqlite3_column_int64(st, 2) < DICE_MAX_PER_TURN) {
		*first = sqlite3_column_int64(st, 0);
		*n = (size_t)sqlite3_column_int64(st, 2) + 1;
		ret = 1;
	}
	sqlite3_reset(st);
	return ret;
}

/* Reads the n dice of turn from rowid first on: 1 when the rows first .. first + n - 1 are
 * dice 0 .. n-1 of the turn, in order (then, (turn, idx) being the primary key, they are all
 * of them); 0, with nothing read, when they are not; -1 on a SQLite failure. */
static int read_dice_run(struct journal *j, int turn, sqlite3_int64 first, size_t n,
	struct journal_record *r)
{
	struct read_rows rr = { 0, BUF_INIT, NULL };
	sqlite3_stmt *st = NULL;
	int rc = read_stmt(j, R_DICE_RUN, turn, &st), ret = 1;

	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int64(st, 2, first);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int64(st, 3, first + (sqlite3_int64)n);
	/* Only rows at rowid first + idx are selected: n of them means every one. */
	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		add_die(r, &rr, r->n_dice, st, 0);
		rc = SQLITE_OK;
	}
	if (rc != SQLITE_DONE)
		ret = read_failed(j->db, st, turn, 0);
	else if (r->n_dice != n)
		ret = 0;
	sqlite3_reset(st);
	if (ret == 1)
		take_purposes(r, &rr);
	else
		r->n_dice = 0;
	buf_release(&rr.purposes);
	free(rr.offset);
	return ret;
}

/* The dice of turn in index order. A turn's rows are appended in one transaction, so they
 * lie in rowid order: read so when they do (no index look-up per die), else by the index. */
static int read_dice(struct journal *j, int turn, struct journal_record *r)
{
	sqlite3_int64 first = 0;
	size_t n = 0;
	int rc = dice_span(j, turn, &first, &n);

	if (rc == 1)
		rc = read_dice_run(j, turn, first, n, r);
	if (rc < 0)
		return -1;
	if (rc == 1 || n == 0)
		return 0;
	return read_rows(j, turn, R_DICE, die_row, r);
}

int journal_read(struct journal *j, int turn, struct journal_record **out)
{
	return journal_read_turn(j, turn, 1, out);
}

/* Runs BEGIN or COMMIT through its kept statement. */
static int read_transaction(struct journal *j, enum read_stmt which)
{
	sqlite3_stmt *st = NULL;
	int rc = read_stmt(j, which, 0, &st);

	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int journal_read_turn(struct journal *j, int turn, int files, struct journal_record **out)
{
	struct journal_record *r = xcalloc(1, sizeof(*r));
	int ret;

	*out = NULL;
	/* One read transaction: every table seen at the same snapshot. */
	if (read_transaction(j, R_BEGIN) != SQLITE_OK) {
		error_set(ERROR_OS, "journal: cannot read turn %d: %s", turn,
			sqlite3_errmsg(j->db));
		journal_record_free(r);
		return -1;
	}
	ret = read_turn_row(j, turn, r);
	if (ret == 0)
		ret = read_rows(j, turn, R_ORDERS, order_row, r);
	if (ret == 0)
		ret = read_dice(j, turn, r);
	if (ret == 0)
		ret = read_rows(j, turn, R_EVENTS, event_row, r);
	if (ret == 0 && files)
		ret = read_rows(j, turn, R_FILES, file_row, r);
	read_transaction(j, R_COMMIT);
	if (ret == 0)
		*out = r;
	else
		journal_record_free(r);
	return ret;
}

int journal_each_file(struct journal *j, int turn,
	int (*fn)(const char *path, const uint8_t sha256[FAIR_HASH_BYTES], void *arg), void *arg)
{
	sqlite3_stmt *st = NULL;
	uint8_t h[FAIR_HASH_BYTES];
	int rc = read_stmt(j, R_FILES, turn, &st), ret = 0;

	if (rc != SQLITE_OK)
		return read_failed(j->db, st, turn, 0);
	while (ret == 0 && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *path = (const char *)sqlite3_column_text(st, 0);
		if (file_hash(h, st) < 0)
			return read_failed(j->db, st, turn, 1);
		ret = fn(path ? path : "", h, arg);
	}
	if (ret == 0 && rc != SQLITE_DONE)
		ret = read_failed(j->db, st, turn, 0);
	sqlite3_reset(st);
	return ret;
}

int journal_each_summary(struct journal *j, int before,
	int (*fn)(int turn, const char *summary, void *arg), void *arg)
{
	sqlite3_stmt *st = NULL;
	int ret = 0, rc = sqlite3_prepare_v2(j->db,
			     "SELECT turn, summary FROM turns WHERE turn >= 1 AND turn < ?1"
			     " ORDER BY turn",
			     -1, &st, NULL);

	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int(st, 1, before);
	while (rc == SQLITE_OK && ret == 0) {
		rc = sqlite3_step(st);
		if (rc != SQLITE_ROW)
			break;
		if (sqlite3_column_type(st, 1) != SQLITE_NULL)
			ret = fn(sqlite3_column_int(st, 0),
				(const char *)sqlite3_column_text(st, 1), arg);
		rc = SQLITE_OK;
	}
	if (ret == 0 && rc != SQLITE_DONE && rc != SQLITE_OK)
		ret = error_set(ERROR_OS, "journal: cannot read the turns' summaries: %s",
			sqlite3_errmsg(j->db));
	sqlite3_finalize(st);
	return ret;
}

const struct journal_order *journal_record_order(const struct journal_record *r, const char *player)
{
	for (size_t i = 0; i < r->n_orders; i++)
		if (r->orders[i].player && strcmp(r->orders[i].player, player) == 0)
			return &r->orders[i];
	return NULL;
}

void journal_record_free(struct journal_record *r)
{
	size_t i;

	if (!r)
		return;
	free(r->summary);
	free(r->beacon_value);
	free(r->beacon_round);
	free(r->beacon_signature);
	for (i = 0; i < r->n_orders; i++) {
		free(r->orders[i].player);
		free(r->orders[i].bytes);
	}
	free(r->orders);
	for (i = 0; !r->purposes && i < r->n_dice; i++)
		free(r->dice[i].purpose);
	free(r->purposes);
	free(r->dice);
	for (i = 0; i < r->n_events; i++) {
		free(r->events[i].phase);
		free(r->events[i].player);
		free(r->events[i].text);
	}
	free(r->events);
	file_list_free(r->files, r->n_files);
	free(r->file_sha256);
	for (i = 0; i < r->n_views; i++)
		free(r->views[i].player);
	free(r->views);
	free(r);
}

int journal_row_count(struct journal *j, long long *out)
{
	sqlite3_stmt *st = NULL;
	int ret = -1;

	*out = 0;
	if (sqlite3_prepare_v2(j->db,
		    "SELECT (SELECT COUNT(*) FROM meta)"
		    " + (SELECT COUNT(*) FROM turns) + (SELECT COUNT(*) FROM orders)"
		    " + (SELECT COUNT(*) FROM dice) + (SELECT COUNT(*) FROM events)"
		    " + (SELECT COUNT(*) FROM files)",
		    -1, &st, NULL) != SQLITE_OK ||
		sqlite3_step(st) != SQLITE_ROW) {
		error_set(ERROR_OS, "journal: cannot count rows: %s", sqlite3_errmsg(j->db));
		goto done;
	}
	*out = sqlite3_column_int64(st, 0);
	ret = 0;
done:
	sqlite3_finalize(st);
	return ret;
}

int journal_quick_check(struct journal *j)
{
	sqlite3_stmt *st = NULL;
	int ret = -1;

	if (sqlite3_prepare_v2(j->db, "PRAGMA quick_check(1)", -1, &st, NULL) != SQLITE_OK) {
		error_set(ERROR_OS, "journal: cannot check: %s", sqlite3_errmsg(j->db));
		return -1;
	}
	int rc = sqlite3_step(st);
	const char *said = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : NULL;
	if (said && strcmp(said, "ok") == 0)
		ret = 0;
	else if (said || rc == SQLITE_CORRUPT || rc == SQLITE_NOTADB)
		error_set(ERROR_INPUT,
			"the journal (.umpire/journal.sqlite) is damaged: SQLite's quick_check says: %.300s (restore it from a backup)",
			said ? said : sqlite3_errmsg(j->db));
	else
		error_set(ERROR_OS, "journal: cannot check: %s", sqlite3_errmsg(j->db));
	sqlite3_finalize(st);
	return ret;
}

int journal_data_version(struct journal *j, long long *out)
{
	sqlite3_stmt *st = NULL;
	int ret = -1;

	if (sqlite3_prepare_v2(j->db, "PRAGMA data_version", -1, &st, NULL) == SQLITE_OK &&
		sqlite3_step(st) == SQLITE_ROW) {
		*out = sqlite3_column_int64(st, 0);
		ret = 0;
	} else {
		error_set(ERROR_OS, "journal: cannot read data_version: %s", sqlite3_errmsg(j->db));
	}
	sqlite3_finalize(st);
	return ret;
}

int journal_record_check(const struct journal_record *r, const uint8_t *secret)
{
	for (size_t i = 0; i < r->n_orders; i++) {
		const struct journal_order *o = &r->orders[i];
		uint8_t h[FAIR_HASH_BYTES];
		char got[65], want[65];
		if (!o->has_file || !o->bytes)
			continue;
		if (secret) {
			uint8_t salt[FAIR_HASH_BYTES];
			fair_salt(salt, secret, (uint32_t)r->turn, o->player);
			fair_sealed_hash(h, salt, o->bytes, o->len);
		} else {
			fair_sha256(h, o->bytes, o->len);
		}
		if (memcmp(h, o->sha256, FAIR_HASH_BYTES) == 0)
			continue;
		hex_encode(got, h, FAIR_HASH_BYTES);
		hex_encode(want, o->sha256, FAIR_HASH_BYTES);
		return error_set(ERROR_INPUT,
			"turn %d: the journal's stored copy of %s's order file is damaged: its bytes hash to %s, its sha256 column says %s (restore the journal from a backup)",
			r->turn, o->player, got, want);
	}
	return 0;
}

int journal_head(struct journal *j, int turn, uint8_t head[FAIR_HASH_BYTES])
{
	sqlite3_stmt *st = NULL;
	int ret = -1;
	int rc = read_stmt(j, R_HEAD, turn, &st);

	memset(head, 0, FAIR_HASH_BYTES);
	if (rc == SQLITE_OK) {
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW && column_hash(head, st, 0) == 1) {
			ret = 0;
		} else if (rc == SQLITE_DONE) {
			error_set(ERROR_MISSING, "journal: there is no turn %d", turn);
			ret = ERROR_NOTFOUND;
		}
	}
	if (ret == -1)
		error_set(ERROR_OS, "journal: cannot read the head of turn %d: %s", turn,
			sqlite3_errmsg(j->db));
	sqlite3_reset(st);
	return ret;
}

int journal_add_submission(struct journal *j, const struct journal_submission *s)
{
	static const char sql[] =
		"INSERT INTO submissions (seq, turn, player, sender, message_id, mail_sha256, sha256,"
		" arrived_at, handled_at, verdict, reason)"
		" VALUES ((SELECT COALESCE(MAX(seq) + 1, 1) FROM submissions),"
		" ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)";
	sqlite3_stmt *st = NULL;
	char mail_hex[65], hex[65];
	int ret = -1;

	hex_encode(mail_hex, s->mail_sha256, FAIR_HASH_BYTES);
	hex_encode(hex, s->sha256, FAIR_HASH_BYTES);
	if (sqlite3_prepare_v2(j->db, sql, -1, &st, NULL) != SQLITE_OK)
		goto done;
	sqlite3_bind_int(st, 1, s->turn);
	if (s->player)
		sqlite3_bind_text(st, 2, s->player, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, s->sender, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, s->message_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, mail_hex, -1, SQLITE_STATIC);
	if (s->has_file)
		sqlite3_bind_text(st, 6, hex, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 7, s->arrived_at);
	sqlite3_bind_int64(st, 8, s->handled_at);
	sqlite3_bind_text(st, 9, s->accepted ? "accepted" : "refused", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 10, s->reason ? s->reason : "", -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_DONE)
		ret = 0;
done:
	if (ret < 0)
		error_set(ERROR_OS, "journal: cannot record a submission: %s",
			sqlite3_errmsg(j->db));
	sqlite3_finalize(st);
	return ret;
}

int journal_submission_seen(struct journal *j, const char *message_id, int *seen)
{
	sqlite3_stmt *st = NULL;
	int ret = -1;

	if (sqlite3_prepare_v2(j->db, "SELECT count(*) FROM submissions WHERE message_id = ?1", -1,
		    &st, NULL) == SQLITE_OK &&
		sqlite3_bind_text(st, 1, message_id, -1, SQLITE_STATIC) == SQLITE_OK &&
		sqlite3_step(st) == SQLITE_ROW) {
		*seen = sqlite3_column_int(st, 0) > 0;
		ret = 0;
	} else {
		error_set(ERROR_OS, "journal: cannot read submissions: %s", sqlite3_errmsg(j->db));
	}
	sqlite3_finalize(st);
	return ret;
}

int journal_submissions(struct journal *j, int turn, struct journal_submission **out, size_t *n)
{
	static const char sql[] =
		"SELECT player, sender, message_id, mail_sha256, sha256, arrived_at, handled_at,"
		" verdict, reason FROM submissions WHERE turn = ?1 ORDER BY seq";
	sqlite3_stmt *st = NULL;
	int rc;

	*out = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(j->db, sql, -1, &st, NULL) != SQLITE_OK ||
		sqlite3_bind_int(st, 1, turn) != SQLITE_OK)
		goto fail;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*out = xrealloc(*out, (*n + 1) * sizeof(**out));
		struct journal_submission *s = &(*out)[(*n)++];
		memset(s, 0, sizeof(*s));
		s->turn = turn;
		s->player = column_strdup(st, 0);
		s->sender = column_strdup(st, 1);
		s->message_id = column_strdup(st, 2);
		const char *mh = (const char *)sqlite3_column_text(st, 3);
		const char *h = (const char *)sqlite3_column_text(st, 4);
		if (mh)
			hex_decode(s->mail_sha256, FAIR_HASH_BYTES, mh);
		s->has_file = h && hex_decode(s->sha256, FAIR_HASH_BYTES, h) == 0;
		s->arrived_at = sqlite3_column_int64(st, 5);
		s->handled_at = sqlite3_column_int64(st, 6);
		const char *v = (const char *)sqlite3_column_text(st, 7);
		s->accepted = v && strcmp(v, "accepted") == 0;
		s->reason = column_strdup(st, 8);
	}
	if (rc != SQLITE_DONE)
		goto fail;
	sqlite3_finalize(st);
	return 0;
fail:
	error_set(ERROR_OS, "journal: cannot read submissions: %s", sqlite3_errmsg(j->db));
	sqlite3_finalize(st);
	journal_submissions_free(*out, *n);
	*out = NULL;
	*n = 0;
	return -1;
}

void journal_submissions_free(struct journal_submission *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free((char *)v[i].player);
		free((char *)v[i].sender);
		free((char *)v[i].message_id);
		free((char *)v[i].reason);
	}
	free(v);
}
