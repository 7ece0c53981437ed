/* journal.h — the SQLite journal (.umpire/journal.sqlite): an append-only record of every
 * turn: its key, orders digest, beacon, seed, the raw order files, every die with its
 * purpose, every event, the state hash, and the SHA256 of every file the turn's git commit
 * holds (a crash between journal and git is finished from the git objects, stored before
 * the journal names them). Turn 0 is the setup. Schema: schemas/journal.sql, documented in
 * docs/journal.md; <sqlite3.h> is included by journal_int.h only. */
#ifndef UMPIRE_JOURNAL_H
#define UMPIRE_JOURNAL_H

#include <stddef.h>
#include <stdint.h>
#include "core/buf.h"
#include "core/dice.h"
#include "core/events.h"
#include "core/error.h"
#include "core/fair.h"
#include "core/file.h"

struct journal;

struct journal_order {
	char *player;                    /* player id (or "umpire") */
	int has_file;                    /* 0: the player sent no file (sha256 zero, bytes NULL) */
	uint8_t sha256[FAIR_HASH_BYTES]; /* SHA256 of the raw bytes */
	unsigned char *bytes; /* raw bytes as received; NULL when no file, or not kept (exports) */
	size_t len;
};

/* Sealed turns: a player's salted commitments to his report and to his view of the state, as
 * a sealed turn's journal export lists them (docs/fairness.md, "Sealed turns"). */
struct journal_view {
	char *player;                           /* player id */
	uint8_t report_sha256[FAIR_HASH_BYTES]; /* SHA256("umpire/sealed/v1" || salt || report) */
	uint8_t state_sha256[FAIR_HASH_BYTES];  /* the same over his view of the state */
};

/* One turn as appended or read back. Hashes are bytes here; hex only in SQLite and YAML.
 * Everything is owned by the record when it comes from journal_read (free with
 * journal_record_free); when appending, the caller owns it. */
struct journal_record {
	int turn;                               /* 0 = setup */
	uint8_t key[FAIR_HASH_BYTES];           /* k_t; zero (NULL in SQLite) for turn 0 */
	uint8_t orders_digest[FAIR_HASH_BYTES]; /* D_t; zero for turn 0 */
	uint8_t beacon[FAIR_HASH_BYTES];        /* B_t; zero for turn 0 */
	uint8_t seed[FAIR_HASH_BYTES];          /* s_t; zero for turn 0 */
	uint8_t state_sha256[FAIR_HASH_BYTES];  /* SHA256 of state.yaml after the turn */
	char *summary;                          /* one line ("Setup" for turn 0) */
	long long processed_at;                 /* seconds since the epoch (commit time) */
	char *beacon_value;     /* public beacon value mixed into B_t; NULL if none */
	char *beacon_round;     /* the announced round of that value; NULL if none */
	char *beacon_signature; /* the source's signature of that round (hex; drand: value =
	                         * SHA256(signature)); NULL if none given */
	uint8_t journal_head[FAIR_HASH_BYTES]; /* SHA256(previous head || entry bytes) */
	char commit_id[41]; /* hex id of the git commit this turn becomes; "" unknown */
	struct journal_order *orders;
	size_t n_orders;
	struct die_record *dice;
	size_t n_dice;
	char *purposes; /* read back: every dice purpose in one block (journal_record_free frees
	                 * it, not each purpose); NULL: each purpose is its own allocation */
	struct event *events;
	size_t n_events;    /* first_die is not stored: 0 when read */
	struct file *files; /* appending: the bytes the commit holds; read back: the path, the
	                     * bytes at turn 0 only (the others NULL, len 0) */
	size_t n_files;
	uint8_t (*file_sha256)[FAIR_HASH_BYTES]; /* read back: SHA256 of files[i]'s bytes in the
	                                          * commit; appending: NULL, or the caller's
	                                          * SHA256 of each files[i] (taken as given) */
	struct journal_view *views; /* a sealed turn's export (audit_parse_export); not in SQLite */
	size_t n_views;
	uint8_t public_report_sha256[FAIR_HASH_BYTES]; /* a sealed turn's export: SHA256 of
	                                                * reports/turn-NNNN.md; not in SQLite */
	int has_public_report;                         /* public_report_sha256 was given */
};

/* Opens (create=1: creates, applies the schema; fails if it exists) the journal at path.
 * WAL, synchronous=FULL, foreign keys on. Returns 0 or -1 (error.h). */
int journal_open(struct journal **out, const char *path, int create);
/* Opens the journal at path read-only (verify, replay): nothing is written, not even the
 * pragmas journal_open sets, so a read-only copy of a campaign can be read; on a read-only
 * file system, where SQLite cannot make the WAL's -shm file, the file is opened immutable.
 * Returns 0 or -1 (error.h). */
int journal_open_read(struct journal **out, const char *path);
void journal_close(struct journal *j);

/* Appends one turn in a single BEGIN IMMEDIATE transaction (all rows or none). The turn
 * must be exactly last+1 (0 for an empty journal): the triggers refuse anything else.
 * Returns 0 or -1. */
int journal_append(struct journal *j, const struct journal_record *r);
/* *out = the highest turn in the journal, or -1 when empty. Returns 0 / -1. */
int journal_last_turn(struct journal *j, int *out);
/* Reads turn back in full. *out owned by caller. Returns 0, ERROR_NOTFOUND when no such
 * turn, -1. */
int journal_read(struct journal *j, int turn, struct journal_record **out);
/* Like journal_read, without the committed files (files, n_files stay empty) when files is
 * 0: replay compares what it renders with git, and the files are most of a turn's bytes. */
int journal_read_turn(struct journal *j, int turn, int files, struct journal_record **out);
void journal_record_free(struct journal_record *r);
/* Each files row of turn, one at a time, in path order: fn(path, sha256, arg), the SHA256 of
 * the bytes the turn's commit holds at path (valid during the call only). A nonzero return
 * of fn stops the walk and is returned; -1 on a SQLite failure (ERROR_INPUT: a hash that is
 * not 64 hex digits). */
int journal_each_file(struct journal *j, int turn,
	int (*fn)(const char *path, const uint8_t sha256[FAIR_HASH_BYTES], void *arg), void *arg);
/* The summary of each journaled turn from 1 to before - 1, in turn order, in one query:
 * fn(turn, summary, arg), summary valid during the call only (a row without one is skipped).
 * A nonzero return of fn stops the walk and is returned; -1 on a SQLite failure (ERROR_OS). */
int journal_each_summary(struct journal *j, int before,
	int (*fn)(int turn, const char *summary, void *arg), void *arg);
/* The order row of player in r, or NULL. */
const struct journal_order *journal_record_order(const struct journal_record *r,
	const char *player);
/* The journal head after turn. Returns 0, ERROR_NOTFOUND when no such turn, -1. */
int journal_head(struct journal *j, int turn, uint8_t head[FAIR_HASH_BYTES]);
/* Number of rows in every table together (tests: "nothing was written"). */
int journal_row_count(struct journal *j, long long *out);

/* SQLite's PRAGMA quick_check over the whole journal (pages, records, indexes; not the
 * foreign keys): 0 when it says ok, -1 ERROR_INPUT "the journal ... is damaged: ..." with
 * SQLite's first finding, or ERROR_OS when it cannot run. */
int journal_quick_check(struct journal *j);

/* SQLite's PRAGMA data_version of j's connection into *out: it changes when another
 * connection commits to the journal (not on j's own commits). 0 / -1 ERROR_OS. */
int journal_data_version(struct journal *j, long long *out);
/* The stored copies of r (read back from this journal) against their own hashes: each order
 * file's bytes must hash to its sha256 column: SHA256 of the bytes, or with secret (a sealed
 * campaign's, 32 bytes) the salted commitment (fair_salt, fair_sealed_hash). 0, or -1
 * ERROR_INPUT naming the turn, the player and both hashes. */
int journal_record_check(const struct journal_record *r, const uint8_t *secret);

/* One order file that came by mail (`umpire inbox`), accepted or refused: a row of the
 * submissions table (schemas/journal.sql). Strings are the caller's when appending, the
 * record's when read (journal_submissions_free). */
struct journal_submission {
	int turn;                             /* the open turn when it came (>= 1) */
	const char *player;                   /* whose orders; NULL when not a player's */
	const char *sender;                   /* the From address */
	const char *message_id;               /* Message-ID, or "sha256:HEX" of the mail */
	uint8_t mail_sha256[FAIR_HASH_BYTES]; /* SHA256 of the whole mail as delivered */
	int has_file;                         /* 1: an order file was found (sha256 holds it) */
	uint8_t sha256[FAIR_HASH_BYTES];      /* SHA256 of the order file's bytes */
	long long arrived_at;                 /* delivery time, UTC seconds */
	long long handled_at;                 /* when inbox handled it, UTC seconds */
	int accepted;                         /* 1 accepted, 0 refused */
	const char *reason;                   /* "" when accepted; the refusal's first line */
};
/* Appends s as the next submission. Returns 0 / -1. */
int journal_add_submission(struct journal *j, const struct journal_submission *s);
/* *seen = 1 when a submission with message_id was recorded. Returns 0 / -1. */
int journal_submission_seen(struct journal *j, const char *message_id, int *seen);
/* The submissions of turn, in the order handled: *out malloc'd (journal_submissions_free),
 * *n its length. Returns 0 / -1. */
int journal_submissions(struct journal *j, int turn, struct journal_submission **out, size_t *n);
void journal_submissions_free(struct journal_submission *v, size_t n);

#endif
