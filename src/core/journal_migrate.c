/* journal_migrate.c — brings a journal of an older form up to the schema journal.c writes
 * (schemas/journal.sql), the first time a command opens it for writing: each migration in one
 * transaction, documented in docs/journal.md; a journal opened read-only is read as it is. */
#include <stdlib.h>
#include <string.h>

#include "core/fair.h"
#include "core/journal_int.h"
#include "core/banned.h"

/* The text of trigger name's CREATE TRIGGER statement in the embedded DDL (through its
 * "END;"), malloc'd; NULL if the DDL has none (a bug caught by check_journal). */
static char *ddl_trigger(const char *name)
{
	char *head = xasprintf("CREATE TRIGGER %s ", name);
	const char *start = strstr(journal_ddl, head);
	const char *end = start ? strstr(start, "END;") : NULL;

	free(head);
	if (!end)
		return NULL;
	return xasprintf("%.*s", (int)(end + 4 - start), start);
}

/* 1 if the journal's trigger name still counts the turn's rows on each insert (a journal made
 * before the MAX(...) + 1 triggers), 0 if not, -1 error. */
static int trigger_counts(sqlite3 *db, const char *name)
{
	sqlite3_stmt *st = NULL;
	int ret = -1;

	if (sqlite3_prepare_v2(db,
		    "SELECT instr(sql, 'COUNT(*)') > 0 FROM sqlite_master"
		    " WHERE type = 'trigger' AND name = ?1",
		    -1, &st, NULL) != SQLITE_OK ||
		sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC) != SQLITE_OK)
		goto done;
	int rc = sqlite3_step(st);
	ret = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) != 0 : rc == SQLITE_DONE ? 0 : -1;
done:
	sqlite3_finalize(st);
	return ret;
}

/* Journals made before the dense-row triggers compared with MAX(...) + 1 had dice_dense and
 * events_dense count the turn's rows on every insert (quadratic in a turn's dice). The rule
 * they enforce is the same, so the migration replaces the two triggers with the DDL's, in one
 * transaction, and leaves schema_version at 1 (docs/journal.md). 0 ok, -1 with msg. */
static int migrate_dense_triggers(sqlite3 *db, struct buf *msg)
{
	static const char *const names[] = { "dice_dense", "events_dense" };
	int stale = 0;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		int rc = trigger_counts(db, names[i]);
		if (rc < 0) {
			buf_puts(msg, sqlite3_errmsg(db));
			return -1;
		}
		stale |= rc;
	}
	if (!stale)
		return 0;
	if (journal_exec(db, "BEGIN IMMEDIATE") != SQLITE_OK) {
		buf_puts(msg, sqlite3_errmsg(db));
		return -1;
	}
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char *drop = xasprintf("DROP TRIGGER IF EXISTS %s", names[i]);
		char *create = ddl_trigger(names[i]);
		int ok = create && journal_exec(db, drop) == SQLITE_OK &&
			 journal_exec(db, create) == SQLITE_OK;
		free(drop);
		free(create);
		if (!ok) {
			buf_printf(msg, "cannot migrate trigger %s: %s", names[i],
				sqlite3_errmsg(db));
			journal_exec(db, "ROLLBACK");
			return -1;
		}
	}
	if (journal_exec(db, "COMMIT") != SQLITE_OK) {
		buf_puts(msg, sqlite3_errmsg(db));
		journal_exec(db, "ROLLBACK");
		return -1;
	}
	return 0;
}

/* The count sql (binding nothing) selects: >= 0, or -1 on a SQLite failure (the message in
 * sqlite3_errmsg). */
static int count_of(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	int n = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK &&
		sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return n;
}

/* Journals made before the play-by-email record lack the submissions table: the migration
 * adds it and its triggers, the DDL's own text from "CREATE TABLE submissions" to the meta
 * row, in one transaction; schema_version stays 1 (docs/journal.md). 0 ok, -1 with msg. */
static int migrate_submissions(sqlite3 *db, struct buf *msg)
{
	int have = count_of(db,
		"SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'submissions'");
	if (have < 0) {
		buf_puts(msg, sqlite3_errmsg(db));
		return -1;
	}
	if (have)
		return 0;
	const char *start = strstr(journal_ddl, "CREATE TABLE submissions");
	const char *end = start ? strstr(start, "\nINSERT INTO meta") : NULL;
	if (!end) {
		buf_puts(msg, "internal error: the DDL has no submissions table");
		return -1;
	}
	char *ddl = xasprintf("%.*s", (int)(end - start), start);
	int ok = journal_exec(db, "BEGIN IMMEDIATE") == SQLITE_OK &&
		 journal_exec(db, ddl) == SQLITE_OK && journal_exec(db, "COMMIT") == SQLITE_OK;
	free(ddl);
	if (!ok) {
		buf_printf(msg, "cannot add the submissions table: %s", sqlite3_errmsg(db));
		if (!sqlite3_get_autocommit(db))
			journal_exec(db, "ROLLBACK");
		return -1;
	}
	return 0;
}

/* The column ALTER TABLE gives journals made before the beacon's signature was kept: the
 * DDL's own definition, from "beacon_signature TEXT" to the table's end. */
static char *ddl_signature_column(void)
{
	const char *start = strstr(journal_ddl, "\tbeacon_signature TEXT");
	const char *end = start ? strstr(start, "\n) STRICT;") : NULL;
	return end ? xasprintf("%.*s", (int)(end - start - 1), start + 1) : NULL;
}

/* 1 when turns has the beacon_signature column, 0 when not, -1 on error. */
int journal_has_signature_column(sqlite3 *db)
{
	int have = count_of(db,
		"SELECT count(*) FROM pragma_table_info('turns') WHERE name = 'beacon_signature'");
	return have < 0 ? -1 : have > 0;
}

/* Journals made before the beacon's signature was kept lack turns.beacon_signature: the
 * migration adds it (NULL in every old row: no signature was given), schema_version stays 1
 * (docs/journal.md). 0 ok, -1 with msg. */
static int migrate_signature(sqlite3 *db, struct buf *msg)
{
	int have = journal_has_signature_column(db);
	if (have < 0) {
		buf_puts(msg, sqlite3_errmsg(db));
		return -1;
	}
	if (have)
		return 0;
	char *col = ddl_signature_column();
	if (!col) {
		buf_puts(msg, "internal error: the DDL has no beacon_signature column");
		return -1;
	}
	char *sql = xasprintf("ALTER TABLE turns ADD COLUMN %s", col);
	int ok = journal_exec(db, sql) == SQLITE_OK;
	free(sql);
	free(col);
	if (!ok) {
		buf_printf(msg, "cannot add the beacon_signature column: %s", sqlite3_errmsg(db));
		return -1;
	}
	return 0;
}

/* umpire_sha256(X): the lower-case hex SHA256 of blob X, for the files migration's one
 * statement (registered for it, removed after). */
static void sha256_hex(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	uint8_t h[FAIR_HASH_BYTES];
	char hex[2 * FAIR_HASH_BYTES + 1];
	const void *p = argc == 1 ? sqlite3_value_blob(argv[0]) : NULL;
	int n = argc == 1 ? sqlite3_value_bytes(argv[0]) : 0;

	fair_sha256(h, p ? p : "", (size_t)(n > 0 ? n : 0));
	hex_encode(hex, h, FAIR_HASH_BYTES);
	sqlite3_result_text(ctx, hex, -1, SQLITE_TRANSIENT);
}

/* The DDL's own text from `from` up to and including `to` (its first occurrence after
 * from), malloc'd; NULL when the DDL has none (a bug check_journal catches). */
static char *ddl_span(const char *from, const char *to)
{
	const char *start = strstr(journal_ddl, from);
	const char *end = start ? strstr(start, to) : NULL;

	return end ? xasprintf("%.*s", (int)(end + strlen(to) - start), start) : NULL;
}

/* Schema version 1 to 2 (issue 38): the files table kept a copy of every committed file,
 * which git holds already. The table is made again from the DDL, each row's bytes replaced
 * by their SHA256 (the setup's campaign.yaml keeps its bytes too), its triggers and meta's
 * schema_version '2' set past meta_no_update, in one transaction; then VACUUM gives the
 * space back (when it cannot, SQLite reuses the free pages: not an error). 0 / -1. */
static int migrate_files_hashes(sqlite3 *db, struct buf *msg)
{
	static const char *const triggers[] = { "files_no_update", "files_no_delete",
		"files_newest", "meta_no_update" };
	struct buf sql = BUF_INIT;
	char *table = ddl_span("CREATE TABLE files (", "\n) STRICT;");
	int ok = table != NULL;

	buf_puts(&sql, "ALTER TABLE files RENAME TO files_v1;\n");
	buf_puts(&sql, table ? table : "");
	buf_puts(&sql, "\nINSERT INTO files (turn, path, sha256, bytes)"
		       " SELECT turn, path, umpire_sha256(bytes),"
		       " CASE WHEN turn = 0 AND path = '" JOURNAL_SETUP_KEPT "' THEN bytes END"
		       " FROM files_v1 ORDER BY turn, path;\n"
		       "DROP TABLE files_v1;\n"
		       "DROP TRIGGER meta_no_update;\n"
		       "UPDATE meta SET value = '2' WHERE key = 'schema_version';\n");
	for (size_t i = 0; ok && i < sizeof(triggers) / sizeof(triggers[0]); i++) {
		char *t = ddl_trigger(triggers[i]);
		ok = t != NULL;
		buf_printf(&sql, "%s\n", t ? t : "");
		free(t);
	}
	free(table);
	if (!ok) {
		buf_puts(msg, "internal error: the DDL has no files table or trigger");
		buf_release(&sql);
		return -1;
	}
	ok = sqlite3_create_function(db, "umpire_sha256", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
		     NULL, sha256_hex, NULL, NULL) == SQLITE_OK &&
	     journal_exec(db, "BEGIN IMMEDIATE") == SQLITE_OK &&
	     journal_exec(db, buf_str(&sql)) == SQLITE_OK &&
	     journal_exec(db, "COMMIT") == SQLITE_OK;
	if (!ok) {
		buf_printf(msg, "cannot migrate the files table to schema_version 2: %s",
			sqlite3_errmsg(db));
		if (!sqlite3_get_autocommit(db))
			journal_exec(db, "ROLLBACK");
	}
	sqlite3_create_function(db, "umpire_sha256", 1, SQLITE_UTF8, NULL, NULL, NULL, NULL);
	buf_release(&sql);
	if (ok)
		journal_exec(db, "VACUUM");
	return ok ? 0 : -1;
}

int journal_migrate(sqlite3 *db, int *version, struct buf *msg)
{
	if (migrate_dense_triggers(db, msg) != 0 || migrate_submissions(db, msg) != 0 ||
		migrate_signature(db, msg) != 0)
		return -1;
	if (*version == 1) {
		if (migrate_files_hashes(db, msg) != 0)
			return -1;
		*version = 2;
	}
	return 0;
}
