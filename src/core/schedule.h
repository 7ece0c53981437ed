/* schedule.h — the umpire's overrides of a running campaign (docs/formats.md "Umpire's
 * overrides", docs/fairness.md "Schedule changes"): extensions a player asked for, pauses and
 * resumes, stand-ins taking a seat. Each is kept in .umpire/overrides.yaml from when it is made
 * until the next close commits it in the close file (`overrides:`), so the close's commit, its
 * time stamps and every verifier carry it. Every deadline follows them (pbem_deadline). */
#ifndef UMPIRE_SCHEDULE_H
#define UMPIRE_SCHEDULE_H

#include <stddef.h>
#include "core/buf.h"
#include "core/diag.h"

struct campaign;
struct node;

#define SCHEDULE_PENDING "overrides.yaml" /* under .umpire/: made, not yet committed */
/* Under .git/: the closes' overrides as this copy read them (a cache, schedule_load). */
#define SCHEDULE_READ "umpire/closes-read.yaml"
#define SCHEDULE_MAX_REASON 200 /* bytes of a `reason:` */
#define SCHEDULE_MAX 1000       /* overrides one close may carry */

enum override_kind {
	OVERRIDE_EXTEND,  /* a player's extension: every deadline from the turn moves by shift */
	OVERRIDE_PAUSE,   /* the campaign paused until `until`: deadlines move by until - at */
	OVERRIDE_RESUME,  /* a pause ended early: deadlines move back by what was not used */
	OVERRIDE_REPLACE, /* seat `player` has a new player from the turn (a stand-in) */
	OVERRIDE_END,     /* the umpire ends the game with the turn: `player` wins (NULL: a draw) */
	OVERRIDE_KIND_COUNT
};
/* `kind:` values, indexed by enum override_kind; NULL-terminated. */
extern const char *const override_kind_names[];

/* One override. Strings are owned (override_release). */
struct override {
	enum override_kind kind;
	int turn;        /* the first turn not yet closed when it was made: its close carries it */
	long long at;    /* when it was made, UTC seconds (the umpire's clock) */
	long long shift; /* EXTEND, PAUSE, RESUME: seconds every deadline from turn on moves */
	long long until; /* PAUSE: when the pause ends, UTC seconds */
	char *player;    /* EXTEND: who asked; REPLACE: the seat; END: the winner (NULL: draw) */
	char *ssh_key;   /* REPLACE: the newcomer's public key line, or NULL (none) */
	char *reason;    /* why, as given ("" when none) */
};
void override_release(struct override *o);
/* A deep copy of o into out. */
void override_copy(struct override *out, const struct override *o);
/* Frees v[0..n-1] and v. */
void override_list_free(struct override *v, size_t n);

/* Appends the `overrides:` sequence of v[0..n-1] to map (nothing when n is 0, so a close
 * without overrides is what it was before them); with_turn adds each one's `turn:` (the
 * pending file). */
void schedule_emit(struct node *map, const struct override *v, size_t n, int with_turn);
/* Reads the `overrides:` sequence seq (NULL: none) into *v, *n (turn taken from each
 * item's `turn:` when with_turn, else set to turn). Problems go to d. Returns 0 / -1. */
int schedule_parse(struct override **v, size_t *n, const struct node *seq, int turn, int with_turn,
	struct diag *d);

/* Loads every override of c: those the close files on HEAD carry, then the pending ones of
 * .umpire/overrides.yaml (those of a turn already closed are left out: a close committed
 * them), into c->pbem, and gives each replaced seat its newcomer's key. Returns 0 / -1. */
int schedule_load(struct campaign *c);

/* The turn an override made now belongs to: the first turn not yet closed. */
int schedule_open_turn(const struct campaign *c);

/* Records o (o->turn and o->at set by the caller; its strings are taken over) in
 * .umpire/overrides.yaml and c->pbem, after checking it: the deadline it moves has not passed
 * at o->at, an extension is within the player's budget (schedule.extensions), a pause ends
 * later than it starts, a resume ends a pause running. Returns 0, or -1 (ERROR_INPUT with the
 * reason; ERROR_OS) leaving everything as it was. */
int schedule_add(struct campaign *c, struct override *o);

/* Removes the pending file once the close of turn carried its overrides. 0 / -1. */
int schedule_committed(struct campaign *c, int turn);

/* The pending overrides of turn (pointers into c->pbem; *n of them). */
const struct override *schedule_of_turn(const struct campaign *c, int turn, size_t *n);

/* 1 when a pause runs at now (its until later than now, no resume after it); *until then. */
int schedule_paused(const struct campaign *c, long long now, long long *until);

/* Seconds of extension player has used (every EXTEND of his). */
long long schedule_extended(const struct campaign *c, const char *player);

/* The deadline of turn as it stood just before override index i of c->pbem was made (the
 * base schedule and the overrides before it). -1 without a schedule. */
long long schedule_deadline_before(const struct campaign *c, size_t i, int turn);

/* The checks verify makes of the overrides turn's close carries (v[0..n-1], the close at
 * closed_at, the one before at prev_closed_at or -1): each is of that turn, made after the
 * turn opened and no later than its close, moved no deadline that had passed when made, and
 * extensions stay within the budget. Returns 0, or -1 with the reason (ERROR_INPUT). */
int schedule_check_close(const struct campaign *c, int turn, long long prev_closed_at,
	long long closed_at);

/* The first turn of the seat's current player: the turn of the last REPLACE of seat, or 1
 * when it was never replaced (issue 37 item 3). */
int seat_new_player_from(const struct campaign *c, const char *seat);

/* 1 when an override of kind moves no deadline (REPLACE, END). */
int override_is_seat_or_end(enum override_kind kind);

/* The umpire's END among the overrides of turn, or NULL. */
const struct override *schedule_end(const struct campaign *c, int turn);

/* One line for a report or a log: "turn 3: extension of 1d for attacker (asked by mail)". */
void override_describe(struct buf *out, const struct override *o);

#endif
