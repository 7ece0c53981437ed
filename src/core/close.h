/* close.h — a closed turn (docs/fairness.md, "Closed turns"): before any randomness is known,
 * `umpire close` fixes the turn's inputs — every order file's SHA-256, the umpire's rulings,
 * who sent nothing, D_t — and names the randomness still to come (a beacon round, or the
 * players' committed nonces). It is committed as journal/turn-NNNN.close.yaml, tagged
 * close-NNNN, and told to each player as a receipt (receipt.h). This module owns the close
 * file's format, the beacon's round arithmetic and the players' reveals text. */
#ifndef UMPIRE_CLOSE_H
#define UMPIRE_CLOSE_H

#include <stddef.h>
#include <stdint.h>
#include "core/buf.h"
#include "core/diag.h"
#include "core/fair.h"

struct campaign;
struct node;

/* One order file the close fixed. */
struct close_order {
	char *player;                    /* its `player:` (the umpire's rulings: "umpire") */
	uint8_t sha256[FAIR_HASH_BYTES]; /* SHA256 of its bytes */
	int has_salt;                  /* a sealed campaign's time-locked file: its salt, public */
	uint8_t salt[FAIR_HASH_BYTES]; /* from the close on (the file is), so sha256 is checked */
	int has_entropy;               /* entropy players: the file's `entropy:` commitment */
	uint8_t entropy[FAIR_HASH_BYTES];
};

/* What a close fixed. */
struct close_record {
	char *campaign;                  /* campaign id */
	int turn;                        /* the turn closed */
	long long closed_at;             /* when, UTC seconds (the umpire's clock) */
	int entropy;                     /* enum campaign_entropy: beacon or players */
	uint8_t digest[FAIR_HASH_BYTES]; /* D_t */
	struct close_order *orders;      /* sorted by player id (byte order) */
	size_t n_orders;
	char **missing; /* due players who sent nothing (--allow-missing), sorted */
	size_t n_missing;
	long long round;    /* entropy beacon: the round whose value the turn takes */
	long long round_at; /* when that round is out, UTC seconds */
	/* the umpire's overrides made while the turn was open (core/schedule.h), owned */
	struct override *overrides;
	size_t n_overrides;
};

/* When round (>= 1) of the campaign's beacon is out: genesis + (round - 1) * period. */
long long close_round_at(const struct campaign *c, long long round);
/* The first round of the campaign's beacon out at `at` or later (>= 1). */
long long close_first_round(const struct campaign *c, long long at);
/* The round a close at closed_at names: the first one out at least fairness.beacon_delay
 * seconds after it and strictly after it (with delay 0 at a round boundary, or at genesis,
 * the round out at the close itself is public already: the next one). docs/fairness.md,
 * "Closed turns". */
long long close_named_round(const struct campaign *c, long long closed_at);

/* A witness of a close (a receipt's arrival, a time stamp's genTime) is in time at or after
 * closed_at and before this: the named round's round_at under beacon; under players, where
 * the reveals have no public time, closed_at + CLOSE_PLAYERS_WITNESS_WINDOW (docs/fairness.md,
 * "Time stamps"). */
#define CLOSE_PLAYERS_WITNESS_WINDOW 600 /* seconds */
long long close_witness_until(const struct close_record *r);

/* Under entropy players, a close must hold at least one `entropy:` commitment: with none the
 * reveals text is empty and B_t = SHA256("") is known before the close, so the umpire alone
 * could try rulings against the dice (docs/fairness.md, "Closed turns"). Returns 0, or -1
 * (ERROR_INPUT) saying so. */
int close_check_entropy(const struct close_record *r);

/* The one rule for the close's lists: orders (by player) and missing each sorted by player
 * id in byte order (strcmp), no player twice; make_close writes them so, and both verifiers
 * refuse any other order (tools/umpire-verify.mjs: checkAgainstTurn). where names the file in
 * the message. Returns 0, or -1 (ERROR_INPUT) naming the list. */
int close_check_sorted(const struct close_record *r, const char *where);

/* One line on what the close fixed, for its commit message (layout_close_message). */
void close_summary(char *out, size_t size, const struct close_record *r);
/* Renders r as journal/turn-NNNN.close.yaml onto out (the campaign names the beacon). */
void close_render(struct buf *out, const struct close_record *r, const struct campaign *c);
/* Parses a close file (name for diagnostics) into r (release with close_release). Problems
 * go to d. Returns 0 / -1. */
int close_parse(struct close_record *r, const char *name, const struct buf *bytes, struct diag *d);
void close_release(struct close_record *r);
/* Reads the string n (named what in messages) as FAIR_HASH_BYTES bytes written as 64 hex
 * digits into out: 0, or -1 with the error in d (n NULL: -1, nothing added). */
int close_want_hash(const struct node *n, const char *what, uint8_t out[FAIR_HASH_BYTES],
	struct diag *d);
/* The order the close fixed for player, or NULL. */
const struct close_order *close_find(const struct close_record *r, const char *player);

/* One player's reveal after a close, entropy players: the nonce whose SHA-256 his order file
 * committed to, or nothing (his commitment stands in). */
struct close_reveal {
	const char *player; /* not owned */
	int revealed;       /* 1: nonce holds the revealed nonce */
	uint8_t nonce[FAIR_HASH_BYTES];
};
/* The reveals text whose SHA-256 is B_t under entropy players: for every order of r with an
 * entropy commitment, in r's order, "PLAYER nonce HEX" or "PLAYER committed HEX" (the
 * commitment standing in for a nonce not revealed), joined by single spaces. reveals[i]
 * belongs to r->orders[i] (entries without a commitment are skipped). A new string. */
char *close_reveals_text(const struct close_record *r, const struct close_reveal *reveals);
/* Parses a reveals text back against r into reveals (one per order of r), checking each
 * nonce against its commitment. Returns 0, or -1 with the reason (ERROR_INPUT). */
int close_reveals_parse(const struct close_record *r, const char *text,
	struct close_reveal *reveals);

/* Checks player's revealed nonce against the entropy his order file committed to in r.
 * Returns 0 when SHA256(nonce) is that commitment; 1 when not, or when player committed to
 * none (why says so, one line); docs/fairness.md, "Closed turns", step 3. */
int close_reveal_check(const struct close_record *r, const char *player,
	const uint8_t nonce[FAIR_HASH_BYTES], struct buf *why);

/* A reveal file (`campaign`, `turn`, `player`, `nonce`: 64 hex digits) into *out. Returns
 * 0 / -1 with problems into d. */
int close_reveal_file_parse(const char *name, const struct buf *bytes, const char *campaign,
	int turn, char **player, uint8_t nonce[FAIR_HASH_BYTES], struct diag *d);

#endif
