/* dice.h — the dice service: the one way rule code gets randomness. Every die is drawn in
 * order (index 0, 1, 2 …), from a source (the fair derivation of fair.h, or a script in
 * tests), and recorded with its purpose for the journal. Also standard dice notation
 * (NdS, +/-k, khN/klN) for the umpire's generic rulings. */
#ifndef UMPIRE_DICE_H
#define UMPIRE_DICE_H

#include <stddef.h>
#include <stdint.h>
#include "core/fair.h"

#define DICE_MAX_PER_TURN 100000 /* a turn drawing more is an internal error */
#define DICE_MAX_PER_EXPR 100    /* NdS: N at most this */
#define DICE_MAX_PURPOSE 400     /* bytes of one purpose text */

struct die_record {
	uint64_t index; /* j: 0-based position in the turn */
	uint64_t sides; /* n faces */
	uint64_t value; /* 1..sides */
	char *purpose;  /* "Land Raid §22 Shooting: ...": rule, unit, modifiers */
};

struct dice_block; /* purposes are kept in blocks of a few pages (dice.c) */

struct dice {
	struct fair_die_key key;        /* s_t's HMAC key state, set up once per turn */
	const int *script;              /* scripted source: values to return in order (tests) */
	size_t script_len;              /* number of scripted values */
	size_t script_pos;              /* next scripted value */
	const struct die_record *known; /* checked dice of this seed, reused (dice_reuse_checked) */
	size_t n_known;                 /* how many */
	struct die_record *v;           /* every die drawn so far */
	size_t n, cap;
	struct dice_block *blocks; /* the purposes of v, newest block first (freed together) */
	size_t block_used;         /* bytes taken in the newest block */
};

/* A dice service drawing from seed s_t by fair_die. */
void dice_init_fair(struct dice *d, const uint8_t seed[32]);
/* Lets a fair service d reuse dice already derived from its seed: die i with rec[i].sides
 * faces takes rec[i].value instead of being derived again; any other die is derived. The
 * caller has checked rec[i].index == i and rec[i].value == fair_die(seed, i, rec[i].sides)
 * for every i < n (audit_fairness does, for a journal record), so the values are the same
 * either way: replay and verify derive each die once. rec is not copied (it must outlive d). */
void dice_reuse_checked(struct dice *d, const struct die_record *rec, size_t n);
/* A dice service returning the given values in order (not copied: must outlive d).
 * Drawing past the end or a value outside 1..sides aborts with a message: it is a broken
 * test. */
void dice_init_script(struct dice *d, const int *values, size_t n);
void dice_release(struct dice *d);

/* Draws one die with `sides` faces (2..2^64-1) and records it with the formatted purpose.
 * Returns 1..sides. A recorded purpose is cut to DICE_MAX_PURPOSE bytes on a UTF-8
 * character boundary, control characters (newlines) replaced by spaces. Fewer than 2 sides
 * or more than DICE_MAX_PER_TURN dice abort: those are bugs in rule code. */
uint64_t dice_roll(struct dice *d, uint64_t sides, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Draws count dice of `sides` faces into out[0..count-1]; each recorded with the purpose
 * followed by " [i/count]". Returns the sum. */
int dice_roll_many(struct dice *d, int count, int sides, int *out, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Fisher–Yates shuffle of m indices into perm (perm[i] = i initially): for i = m-1 … 1
 * draw an (i+1)-faced die r and swap perm[i] with perm[r-1]. The m-1 dice are recorded
 * with the purpose followed by " [k/m-1]". */
void dice_shuffle(struct dice *d, size_t *perm, size_t m, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Number of dice drawn so far. */
size_t dice_count(const struct dice *d);

/* A parsed dice expression: count d sides, keep highest/lowest `keep`, plus modifier. */
struct dice_expr {
	int count;          /* N (1..DICE_MAX_PER_EXPR); "d6" means 1 */
	uint64_t sides;     /* S (2..1000000) */
	int keep;           /* 0 = keep all; else kh/kl count (1..count) */
	int keep_lowest;    /* 1 for klN */
	long long modifier; /* +k / -k (|k| <= 1000000) */
};
/* Parses "2d6", "d10", "3d6kh2", "4d6kl1+2", "2d6-1". Returns 0, or -1 with a message
 * (what is wrong and what was expected) in err. */
int dice_expr_parse(struct dice_expr *out, const char *text, char *err, size_t errlen);
/* Canonical notation of e into out ("2d6+1"). */
void dice_expr_format(const struct dice_expr *e, char *out, size_t outlen);
/* Rolls e: every die recorded as "purpose (notation) [i/count]" (just the notation when
 * purpose is NULL or ""); returns the total after keep and modifier. */
long long dice_expr_roll(struct dice *d, const struct dice_expr *e, const char *purpose);

#endif
