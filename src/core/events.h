/* events.h — what happened in a turn, in order: the narrative a report shows and the
 * journal keeps. Void orders (valid when sent, impossible when their moment came) are
 * events too, carrying the player, the order's position and the reason. */
#ifndef UMPIRE_EVENTS_H
#define UMPIRE_EVENTS_H

#include <stddef.h>

struct dice;

enum event_kind { EVENT_EVENT, EVENT_VOID };

struct event {
	enum event_kind kind;
	char *phase;      /* the phase of the rule system's turn sequence, e.g. "events" */
	char *player;     /* EVENT_VOID: whose order; else NULL */
	int order_index;  /* EVENT_VOID: 1-based position in that player's orders list */
	char *text;       /* one line, no newline */
	size_t first_die; /* dice index count when the event was recorded (for reports) */
};

struct events {
	struct event *v;
	size_t n, cap;
	const struct dice *dice; /* when set: first_die = dice_count(dice) at each event, i.e.
	                          * the event was recorded after dice 0 .. first_die-1 (audit) */
	int sealed; /* visibility sealed: every event is public (the export, every report), so a
	             * rule system records none that tells a private choice */
};

/* What a sealed campaign's public texts (the export's void_orders, the public report, the
 * other players' reports) say in place of a void order's reason, which names an order that
 * was never carried out and so is withheld until the reveal (docs/fairness.md, "Sealed
 * turns"); his own report keeps the full text, and so does the umpire's journal. */
#define EVENTS_VOID_WITHHELD "withheld until the reveal (it names an order never carried out)"

/* The event (phase "orders") a turn journals for each due player it closed without orders
 * (turn.c, step_resolve): exactly "no orders from P". The seats' missed turns (missed.c) and
 * the umpire's overrides (overrides.c) read it back whole (events_is_no_orders). */
#define EVENTS_NO_ORDERS "no orders from %s"
/* The event (phase "orders") for a player whose file the close fixed but which gives no
 * orders: a time-locked file that did not open, opened to no order file of his for the turn,
 * or was sealed to a round the close does not name (docs/fairness.md, "Time-locked orders"):
 * "orders from P count as none: WHY". He sent a file: it is not a missed turn. */
#define EVENTS_VOID_FILE "orders from %s count as none: %s"

/* 1 when text is exactly EVENTS_NO_ORDERS of player, else 0. */
int events_is_no_orders(const char *text, const char *player);

/* "event" or "void": the kind as the journal and its exports spell it. */
const char *event_kind_name(enum event_kind kind);

void events_init(struct events *e);
void events_release(struct events *e);
/* Records an event of phase (copied) with formatted text. */
void events_add(struct events *e, const char *phase, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Records a void order: player's order number order_index (1-based) could not be carried
 * out; text is the reason. */
void events_void(struct events *e, const char *phase, const char *player, int order_index,
	const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif
