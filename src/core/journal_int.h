/* journal_int.h — what the files of the journal module (journal.c: opening, appending and
 * reading; journal_migrate.c: bringing journals of older forms up to the schema) share, and
 * no one else includes. The only header that includes <sqlite3.h>. */
#ifndef UMPIRE_JOURNAL_INT_H
#define UMPIRE_JOURNAL_INT_H

#include <sqlite3.h>
#include "core/buf.h"
#include "core/journal.h"

/* The schema_version this code writes, and the older one it reads and migrates. */
#define JOURNAL_SCHEMA_VERSION 2
#define JOURNAL_SCHEMA_OLDEST 1

/* The one committed file whose bytes the journal keeps: the setup's (turn 0) campaign.yaml,
 * which the journal's identity check reads (the files table's CHECK says the same). */
#define JOURNAL_SETUP_KEPT "campaign.yaml"

/* schemas/journal.sql, verbatim (journal.c, compiled in at build time). */
extern const char journal_ddl[];

/* Runs SQL text that binds nothing (pragmas, transaction control, the DDL): SQLite's code. */
int journal_exec(sqlite3 *db, const char *sql);
/* 1 when turns has the beacon_signature column, 0 when not, -1 on error. */
int journal_has_signature_column(sqlite3 *db);
/* Brings a journal of schema_version *version (JOURNAL_SCHEMA_OLDEST or later) opened for
 * writing up to the schema the DDL gives, each step in one transaction (docs/journal.md):
 * the dense-row triggers, the submissions table, the beacon_signature column, and from
 * version 1 to 2 the files rows' bytes replaced by their hashes (*version is then 2).
 * 0, or -1 with the reason in msg. */
int journal_migrate(sqlite3 *db, int *version, struct buf *msg);

#endif
