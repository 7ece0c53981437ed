/* missed.h — the turns each seat missed, in a row and in all, and civil disorder, derived
 * from the committed history alone (docs/formats.md "Play by email", "Missed turns"): each
 * close's `missing` and `orders` lists (journal/turn-NNNN.close.yaml at tag close-NNNN), and
 * for a turn without a close its journal export (the events "no orders from P", the orders
 * received). Never a counter the umpire keeps: every player and verify derive the same. */
#ifndef UMPIRE_MISSED_H
#define UMPIRE_MISSED_H

#include <stddef.h>
#include "core/buf.h"

struct campaign;
struct turn_input;

/* One seat's missed turns up to a turn. */
struct missed {
	int in_row;   /* due turns missed since his last accepted orders, or since the seat's
	               * current player took it (seat_new_player_from), whichever is later */
	int total;    /* due turns missed in all, from turn 1, whoever held the seat */
	int last;     /* the last turn missed; 0: none */
	int disorder; /* 1: in civil disorder (schedule.civil_disorder N > 0, in_row >= N) */
};

/* What one turn's record says of a seat. */
enum missed_mark {
	MISSED_NOT_DUE, /* neither sent nor missing: not due that turn (or the game over) */
	MISSED_SENT,    /* his orders were accepted (a file in the close / the export), or
	                 * under entropy players his contribution when not due */
	MISSED_MISSED,  /* due, and closed without orders (the close's missing list) */
};

/* The first turn of a seat's current player is seat_new_player_from (core/schedule.h): from
 * the public record "seat P: new player from turn N" of `umpire players DIR --replace`. */

/* What turn n's committed record says of each player of c: marks[i] for c->players[i].
 * Reads the close at tag close-NNNN, else the export at tag turn-NNNN. Returns 0;
 * ERROR_NOTFOUND when turn n has neither; -1 when a record cannot be read (error_last()). */
int missed_turn_marks(struct campaign *c, int n, enum missed_mark *marks);

/* Every seat's missed turns over turns 1..upto (the committed turns and closes), into
 * out[0..c->n_players), campaign order. A turn with no record yet ends the count. Returns
 * 0, or -1 (error_last()). */
int missed_count(struct missed *out, struct campaign *c, int upto);

/* missed_count over the turns before in->turn, then in->turn as its input says (a file:
 * sent; missing: missed): the counts a turn's report gives before the turn is committed. */
int missed_count_turn(struct missed *out, struct campaign *c, const struct turn_input *in);
/* The entry of out (missed_count's, campaign order) for player, or NULL. */
const struct missed *missed_find(const struct missed *out, const struct campaign *c,
	const char *player);
/* What a reminder tells the player of seat m (NULL: nothing) beyond "no orders yet", in
 * sentences ending with a line break, appended to out: the turns he has missed, what a
 * missed turn plays (schedule.missed) and, with civil_disorder N, how many misses in a
 * row put his side in civil disorder, or that it is in it. Nothing when he has missed none
 * and the schedule has no civil disorder. */
void missed_remind(struct buf *out, const struct campaign *c, const struct missed *m);
/* 1 if any of m[0..n) has missed a turn. */
int missed_any(const struct missed *m, size_t n);
/* "2 in a row, 3 in all" and " (civil disorder: hold orders)" when so, appended to out. */
void missed_describe(struct buf *out, const struct missed *m);

/* The report's "## Missed turns" section for turn in->turn (missed_count_turn): a line per
 * seat that has missed any, appended to b; nothing when none has, or when the campaign has
 * no schedule (no deadline to miss: the umpire closes each turn by hand). */
void missed_render(struct buf *b, struct campaign *c, const struct turn_input *in);

/* The turns player missed in a row before turn `turn` (turns turn-1, turn-2, ... back to
 * his last accepted orders or his seat's new player), counted up to cap at most: what a
 * turn needs to know of civil disorder without reading the whole history. Returns the
 * count (0..cap), or -1 (error_last()). */
int missed_in_row_before(struct campaign *c, int turn, const char *player, int cap);

/* What turn `turn` does of one due player, by the campaign's schedule and the history. */
struct missed_plan {
	int hold;        /* 1: his side plays the rule system's hold orders (rules.h) */
	int row;         /* the turns he has missed in a row, this one included (0: he sent) */
	char event[300]; /* the civil disorder event to journal (phase "orders"); "" none */
};
/* The plan for player on turn `turn`, sent 1 when his orders were accepted, 0 when he is
 * closed without: with `schedule.missed: hold` every miss holds; with civil_disorder N,
 * the Nth miss in a row puts the side in civil disorder (journaled) and every miss after it
 * holds, until his orders are accepted or a new player takes the seat (journaled as its
 * end). Returns 0, or -1 (error_last()). */
int missed_plan(struct missed_plan *out, struct campaign *c, int turn, const char *player,
	int sent);

#endif
