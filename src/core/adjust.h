/* adjust.h — the umpire's adjustments: corrections to the rule system's model of the armies
 * that the umpire's file carries beside its dice rulings (add or remove DISR, break or remove a
 * unit, change army morale, add a unit, set a unit's status; rule a line of sight or a cover
 * between two units for the turn, when the table disagrees with the map, or a range band). The vocabulary is the core's, so
 * any rule system may accept it; orders.c checks the shape, the rule system's adjust_check hook
 * the meaning, and the `rulings` step applies them through adjust_apply (docs/formats.md). */
#ifndef UMPIRE_ADJUST_H
#define UMPIRE_ADJUST_H

#include <stddef.h>
#include "core/node.h"

#define ADJUST_MAX_REASON 200 /* bytes of a `reason:` */
#define ADJUST_MAX_BY 100     /* |by| of a disr or morale adjustment */
#define ADJUST_MAX_STRENGTH 100

enum adjust_kind {
	ADJUST_DISR,     /* unit, by: DISR markers added (+) or removed (-) */
	ADJUST_BREAK,    /* unit: the unit breaks */
	ADJUST_REMOVE,   /* unit: the unit leaves the model */
	ADJUST_MORALE,   /* side, by: army morale changed */
	ADJUST_ADD_UNIT, /* side, unit, name, type, strength: a new unit */
	ADJUST_STATUS,   /* unit, status, value: a status the rule system names set or cleared */
	ADJUST_LOS,      /* from, to, value: the line of sight between two units ruled clear (1)
	                  * or blocked (0) for this turn, whatever the rule system computes */
	ADJUST_COVER,    /* from, to, grade: the cover of unit `to` against unit `from` ruled to be
	                  * the rule system's grade word for this turn */
	ADJUST_RANGE,    /* from, to, band: the range of unit `to` from unit `from` ruled to be the
	                  * rule system's band word (e.g. close, long, beyond) for this turn */
	ADJUST_KIND_COUNT
};

/* `adjust:` values, indexed by enum adjust_kind; NULL-terminated. */
extern const char *const adjust_kind_names[];

/* One adjustment of the umpire's file. Strings are owned (adjustment_release). */
struct adjustment {
	enum adjust_kind kind;
	size_t index;          /* 1-based position in the umpire's `orders` list */
	char *unit;            /* unit id (every kind but MORALE) */
	char *side;            /* a campaign player id (MORALE, ADD_UNIT) */
	long long by;          /* DISR, MORALE: nonzero, |by| <= ADJUST_MAX_BY */
	char *name;            /* ADD_UNIT: display name (the id when not given) */
	char *type;            /* ADD_UNIT: the rule system's unit type word */
	long long strength;    /* ADD_UNIT: the rule system's measure of what the unit can take
	                      * (hm-events: the DISR at which it breaks); 0 when not given */
	char *status;          /* STATUS: the rule system's status word */
	int value;             /* STATUS: set (1) or cleared (0); LOS: clear (1) or blocked (0) */
	char *from;            /* LOS, COVER, RANGE: unit id (the one who sees or shoots) */
	char *to;              /* LOS, COVER, RANGE: unit id (the one seen or shot at) */
	char *grade;           /* COVER: the rule system's cover word */
	char *band;            /* RANGE: the rule system's range band word */
	char *reason;          /* why: journaled with the adjustment */
	const struct node *at; /* the list item, for diagnostics: valid during adjust_check only */
};

void adjustment_release(struct adjustment *a);

#endif
