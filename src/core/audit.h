/* audit.h — checking a recorded turn against what it must be: the fairness derivation of
 * docs/fairness.md re-done on the record (key chain, orders digest, beacon, seed, every die),
 * the committed order files against the recorded hashes, and the turn re-resolved through
 * the turn pipeline and compared with the record and the committed files. One code path for
 * `replay` (the record comes from the SQLite journal), `verify` and `audit` (the record comes
 * from the committed journal export, so they work on a plain clone). */
#ifndef UMPIRE_AUDIT_H
#define UMPIRE_AUDIT_H

#include <stddef.h>
#include <stdint.h>
#include "core/buf.h"
#include "core/campaign.h"
#include "core/journal.h"
#include "core/turn.h"
#include "core/layout.h"

enum audit_flags {
	/* The record was read from a journal export: it lists every player plus umpire (with
	 * sha256 "" for one who sent no file), holds no order bytes, and keeps void orders
	 * apart from the other events, so events are compared kind by kind. */
	AUDIT_EXPORT = 1 << 0,
};

/* A turn re-resolved from its committed order files. */
struct audit_turn {
	struct turn t; /* the pipeline's turn: in (the committed order files), out (what
	                          * it produced; out.rules_first_die and rules_first_event split the
	                          * umpire's rulings from the rule system's phases) */
	char source[LAYOUT_PATH_MAX]; /* how messages name the record */
};

/* Reads the journal export journal/turn-NNNN.yaml (bytes, name for diagnostics) into a new
 * record (free with journal_record_free): turn, key, orders (sha256 "" when not received,
 * no bytes), orders_digest, beacon, beacon_value, beacon_round, seed, dice, events (the
 * `events` list as kind "event", then `void_orders` as kind "void"), state_sha256, summary.
 * When c is not NULL, also checks `campaign`, `rules` and that `orders` lists every player
 * of c plus umpire in byte order of id. Every problem goes to d. Returns 0 / -1. */
int audit_parse_export(struct journal_record **out, const struct campaign *c, const char *name,
	const void *bytes, size_t len, struct diag *d);

/* Reads the journal export of turn t as committed at its tag (layout.h) and parses it with
 * audit_parse_export. bytes (may be NULL) receives the raw bytes (the hash chain's entry).
 * Returns 0; ERROR_NOTFOUND when the tag or the file is absent; -1 with class ERROR_INPUT and
 * the problems in d when it does not parse, another class on an I/O error. */
int audit_read_export(struct journal_record **out, struct campaign *c, int turn, struct buf *bytes,
	struct diag *d);

/* The SQLite journal's record jr of a turn against the journal export ex committed for it
 * (audit_parse_export), without resolving anything: key, D_t, beacon (hash, value, round),
 * seed, who sent a file and its hash (salted when sealed), every die (sides, value, purpose), every event
 * and void order (phase, text, in order), the state hash and the summary. What verify checks
 * on the umpire's copy of a sealed turn before the reveal, and what a turn checks of the
 * turn it follows, so a journal edited under the history (its triggers dropped) is caught
 * (issue 25). Returns 0, or -1 with the first difference in error_last() (ERROR_INPUT). */
int audit_journal_export(const struct journal_record *jr, const struct journal_record *ex);

/* The fairness of a record by docs/fairness.md, without resolving anything: the key chains
 * to c's commitment in r->turn steps; D_t from the recorded per-player hashes (every player
 * of c plus umpire, a player without a row or with sha256 "" as no file); B_t from the
 * beacon value (32 zero bytes without one; a value is required exactly when c has
 * fairness.beacon); s_t; every die has index i at position i, 2 <= sides and the value
 * fair_die(s_t, i, sides). source names the record in messages ("the journal",
 * "journal/turn-0003.yaml"). Returns 0, or -1 with the first failure in error_last(), class
 * ERROR_INPUT
 * ("turn 3: die 5 differs from the seed: ..."). */
int audit_fairness(const struct campaign *c, const struct journal_record *r, const char *source);

/* Re-resolves turn r->turn: reads the order files committed at rev (orders/turn-NNNN/), checks
 * their bytes against r's hashes, puts them through the pipeline's checks against state (the
 * state after turn r->turn - 1, mutated into the state after the turn), audit_fairness(r),
 * resolves with r's key and beacon, then audit_compare(r) and requires state.yaml, the
 * journal export and every report committed at rev to be byte for byte what the pipeline
 * rendered. at is initialised here; release it with audit_turn_release either way.
 * Returns 0 when everything agrees, or -1: class ERROR_INPUT with the first difference in
 * error_last() ("turn 3: ..."), another class for an internal or I/O error. */
int audit_resolve(struct audit_turn *at, struct campaign *c, void *state, const char *rev,
	const struct journal_record *r, unsigned flags);

/* Compares a record with a turn already re-resolved: its orders with the committed order
 * files (hash, and bytes when the record holds them; a player recorded without a file must
 * be one the pipeline found missing), its fairness (audit_fairness), digest, beacon, seed,
 * every die (sides, value, purpose), every event, the state hash and the summary.
 * Returns 0, or -1 with the first difference in error_last() (class ERROR_INPUT). */
int audit_compare(const struct audit_turn *at, const struct campaign *c,
	const struct journal_record *r, unsigned flags);

void audit_turn_release(struct audit_turn *at);

/* The phase die j was drawn in: "umpire" for the umpire's rulings (reported by the event of
 * ruling N, from the purpose "umpire ruling N: ..."), otherwise the phase of the first event
 * the rule system recorded after drawing it (the event that reports it).
 * *event receives that event's index in at->out.events (the last event when none follows;
 * (size_t)-1 when the turn has no event). Returns NULL when j is not a die of the turn. */
const char *audit_die_phase(const struct audit_turn *at, uint64_t j, size_t *event);

/* One HMAC block of fair_die. */
struct audit_block {
	uint32_t a;          /* the attempt: 0, 1, 2 ... */
	uint8_t message[25]; /* "umpire/die/v1" || be64(j) || be32(a) */
	uint8_t mac[32];     /* HMAC(s_t, message) */
	uint64_t x;          /* be64 of the first 8 bytes of mac */
	int accepted;        /* x < limit */
};

/* fair_die(seed, j, n) step by step, recomputed here from fair_hmac (docs/fairness.md §7). */
struct audit_die {
	uint64_t j, sides;          /* the die: index and faces */
	int every_x;                /* n divides 2^64: the limit is 2^64 and every x is accepted */
	uint64_t limit;             /* 2^64 - (2^64 mod n) when !every_x */
	uint64_t rem;               /* 2^64 mod n */
	struct audit_block *blocks; /* every block drawn, the last one accepted */
	size_t n_blocks;
	uint64_t value; /* 1 + (x mod n) of the accepted block */
};

/* Fills d for die j with n >= 2 faces of seed. Release with audit_die_release. */
void audit_die_explain(struct audit_die *d, const uint8_t seed[32], uint64_t j, uint64_t n);
void audit_die_release(struct audit_die *d);
/* Appends die j (n >= 2 faces) of seed step by step, in the lines `umpire audit DIR T:J`
 * prints for it (the limit, every HMAC block with x and its rejection test, the value); t
 * names the seed s_t (0: "s"). */
void audit_die_text(struct buf *out, const uint8_t seed[32], uint64_t j, uint64_t n, int t);

#endif
