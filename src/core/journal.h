/* journal.h — the SQLite journal (.umpire/journal.sqlite): an append-only record of every
 * turn: its key, orders digest, beacon, seed, the raw order files, every die with its
 * purpose, every event, the state hash, and the exact bytes of every file the turn's git
 * commit holds (so a crash between journal and git can be finished from the journal).
 * Turn 0 is the setup. Schema: schemas/journal.sql, documented in docs/journal.md.
 * The only file that includes <sqlite3.h>. */
#ifndef UMPIRE_JOURNAL_H
#define UMPIRE_JOURNAL_H

#include <stddef.h>
#include "core/buf.h"
#include "core/dice.h"
#include "core/events.h"

struct journal;

struct journal_order {
	char *player;         /* player id (or "umpire") */
	char sha256[65];      /* hex SHA256 of the raw bytes; "" when no file */
	unsigned char *bytes; /* raw bytes as received; NULL when no file */
	size_t len;
};

struct journal_file {
	char *path;           /* repository path, e.g. "state.yaml", "orders/turn-0003/attacker.yaml" */
	unsigned char *bytes; /* exact content committed */
	size_t len;
};

struct journal_event {    /* an event as stored (mirrors struct event) */
	char *phase;
	char *kind;           /* "event" or "void" */
	char *player;         /* NULL unless void */
	int order_index;      /* 0 unless void */
	char *text;
};

/* One turn as appended or read back. Everything is owned by the record when it comes from
 * journal_read_turn (free with journal_record_free); when appending, the caller owns it. */
struct journal_record {
	int turn;                     /* 0 = setup */
	char key[65];                 /* hex k_t; "" for turn 0 */
	char orders_digest[65];       /* hex D_t; "" for turn 0 */
	char beacon[65];              /* hex B_t; "" for turn 0 */
	char seed[65];                /* hex s_t; "" for turn 0 */
	char state_sha256[65];        /* hex SHA256 of state.yaml after the turn */
	char *summary;                /* one line ("Setup" for turn 0) */
	long long processed_at;       /* seconds since the epoch (commit time) */
	char *beacon_value;           /* public beacon value mixed into B_t; NULL if none */
	char *beacon_round;           /* the announced round of that value; NULL if none */
	char journal_head[65];        /* hex SHA256(previous head || canonical entry bytes) */
	char commit_id[41];           /* hex id of the git commit this turn becomes; "" unknown */
	struct journal_order *orders; size_t n_orders;
	struct die_record *dice; size_t n_dice;
	struct journal_event *events; size_t n_events;
	struct journal_file *files; size_t n_files;
};

/* Opens (create=1: creates, applies the schema; fails if it exists) the journal at path.
 * WAL, synchronous=FULL, foreign keys on. Returns 0, or -1 with a one-line message in err. */
int journal_open(struct journal **out, const char *path, int create, struct buf *err);
void journal_close(struct journal *j);

/* Appends one turn in a single BEGIN IMMEDIATE transaction (all rows or none). The turn
 * must be exactly last+1 (0 for an empty journal): the triggers refuse anything else.
 * Returns 0, or -1 with message in err. */
int journal_append(struct journal *j, const struct journal_record *r, struct buf *err);
/* *out = the highest turn in the journal, or -1 when empty. Returns 0 / -1. */
int journal_last_turn(struct journal *j, int *out, struct buf *err);
/* Reads turn back in full. *out owned by caller. Returns 0, 1 when no such turn, -1 error. */
int journal_read(struct journal *j, int turn, struct journal_record **out, struct buf *err);
void journal_record_free(struct journal_record *r);
/* The journal head after turn (hex). Returns 0, 1 when no such turn, -1 error. */
int journal_head(struct journal *j, int turn, char hex[65], struct buf *err);
/* Number of rows in every table together (tests: "nothing was written"). */
int journal_row_count(struct journal *j, long long *out, struct buf *err);

#endif
