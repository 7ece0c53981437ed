/* hmevents.h — internal interface of the horse-and-musket random events rule system
 * (`hm-events`): a small model of two armies that the umpire keeps current (units with DISR
 * and break thresholds, commanders, army morale), the sheet's twenty random events, events
 * held in hand, and the effects in force. Exposed so the Check suites can test each piece.
 * The spec is the random-events sheet (a blog post, November 2012) with the readings of NOTES
 * §002; every reading is in docs/rules/hm-events.md. */
#ifndef UMPIRE_HMEVENTS_H
#define UMPIRE_HMEVENTS_H

#include <stddef.h>
#include "rules/rules.h"

#define HM_EVENTS 20          /* the D20 table */
#define HM_MAX_UNITS 100      /* units in the model, both sides */
#define HM_MAX_CHOICE 16      /* units in one standing choice list */
#define HM_MAX_DISR 99        /* DISR on one unit */
#define HM_MAX_MORALE 99      /* |army morale| */
#define HM_MAX_EFFECTS 64     /* effects in force in a state file */
#define HM_EFFECTS_PER_TURN 3 /* a turn adds at most: two held events and the roll */

enum hm_type { HM_INFANTRY, HM_CAVALRY, HM_ARTILLERY, HM_TYPE_COUNT };

/* Who made a choice an effect names. */
enum hm_chooser { HM_BY_NONE, HM_BY_ATTACKER, HM_BY_DEFENDER, HM_BY_DEFAULT, HM_CHOOSER_COUNT };

/* Campaign options (docs/rules/hm-events.md). */
struct hm_options {
	int rally_per_game;    /* rally-to-the-flag: once-per-game (1) / once-per-player (0) */
	int held_after_roll;   /* held-events: after-the-roll (1) / before-the-roll (0) */
	int suppress_any_gain; /* suppress-while-holding: any-gain-to-holder (1) /
	                        * beneficial-to-holder (0) */
};

/* One row of the D20 table (the sheet's events 1-20). */
struct hm_event {
	const char *name;  /* kebab-case, as in files: "rally-to-the-flag" */
	const char *title; /* as on the sheet: "Rally to the Flag" */
	int beneficial;    /* NOTES §002: 9-16, 18, 19 beneficial; 1-8, 17, 20 detrimental */
	unsigned types;    /* unit types it may name (1 << enum hm_type); 0: no unit */
	const char *does;  /* the instruction, "%s" the unit's name */
};
/* hm_events[1..20]; [0] unused. */
extern const struct hm_event hm_events[HM_EVENTS + 1];
extern const char *const hm_type_names[];    /* "infantry", "cavalry", "artillery", NULL */
extern const char *const hm_chooser_names[]; /* "none", "attacker", "defender", "default" */

/* A player's standing orders: which events he keeps in hand when he gains them, and whom he
 * chooses when an event needs a unit (choose[e] for event e, choose[0] for any event). */
struct hm_standing {
	unsigned keep;                              /* bit e: keep event e */
	char *choose[HM_EVENTS + 1][HM_MAX_CHOICE]; /* unit ids, owned */
	size_t n_choose[HM_EVENTS + 1];
};

struct hm_unit {
	char *id, *name; /* owned */
	int side;        /* 0 or 1: index into state->side */
	enum hm_type type;
	int disr;         /* DISR markers */
	int break_at;     /* the DISR at which the unit breaks */
	int broken;       /* broken (kept in the model until removed) */
	int charge_range; /* an enemy is in legal charge range (the umpire's `status`) */
};

struct hm_side {
	char *player;    /* owned; a campaign player id */
	char *commander; /* owned; the commander's name */
	int morale;      /* army morale */
	int held;        /* event held in hand (1..20), 0 none */
	int held_since;  /* turn it was kept */
	int rally_used;  /* Rally to the Flag used */
	struct hm_standing standing;
};

/* An effect in force: event `event` binds side's unit (or commander, or army) until the end
 * of turn `until`. */
struct hm_effect {
	int side;
	int event;
	char *unit; /* owned unit id; NULL: the commander (1) or the army (10) */
	enum hm_chooser chosen_by;
	int amount; /* Rally to the Flag: morale added */
	int until;  /* the last turn it is in force */
};

struct hm_state {
	int attacker; /* index of the attacker's side; the other defends */
	struct hm_side side[2];
	struct hm_unit *units; /* owned, in army order (side 0's first as listed) */
	size_t n_units;
	struct hm_effect *effects; /* owned */
	size_t n_effects;
};

/* Parsed orders of one player for one turn. */
struct hm_orders {
	int play_held;    /* play the held event at the start of this turn */
	int has_standing; /* standing orders given: they replace the player's */
	struct hm_standing standing;
};

/* state.c */
void hm_options_default(struct hm_options *o);
int hm_options_parse(void **out, const struct node *opts, struct diag *d);
struct node *hm_options_emit(const void *opts);
void hm_options_free(void *opts);
int hm_state_parse(void **out, const struct rules_campaign *c, const struct node *game,
	struct diag *d);
struct node *hm_state_emit(const struct rules_campaign *c, const void *state);
/* The state as player may know it (NULL: the public view): a side's standing orders (`keep`,
 * `choose`) are private to it, everything else is on the table (docs/rules/hm-events.md,
 * "Sealed campaigns"). A new tree. */
struct node *hm_state_view(const struct rules_campaign *c, const void *state, const char *player);
void hm_state_free(void *state);
/* The index of the unit called id, or -1. */
int hm_unit_find(const struct hm_state *s, const char *id);
/* rules.h orders_template: player's next order file (template.c). */
void hm_orders_template(const struct rules_campaign *c, const void *state, int turn,
	const char *player, struct buf *out);
/* The side index of player, or -1. */
int hm_side_find(const struct hm_state *s, const char *player);
/* The event called name (1..20), or 0. */
int hm_event_find(const char *name);
void hm_standing_release(struct hm_standing *st);
/* Parses standing orders (`keep`, `choose`) into *st against s (every unit named must be in
 * the model). Returns 0 / -1 (problems into d). */
int hm_standing_parse(struct hm_standing *st, const struct hm_state *s, const struct node *n,
	struct diag *d);
struct node *hm_standing_emit(const struct hm_standing *st);
/* Removes unit i, every effect naming it, and its id from both sides' standing choose lists
 * (passed over: docs/rules/hm-events.md, "Orders"). */
void hm_unit_remove(struct hm_state *s, size_t i);
/* Drops from st's choose lists every unit id that is not in s's model (a unit removed since
 * the orders were checked is passed over), keeping the order of the rest. */
void hm_standing_prune(struct hm_standing *st, const struct hm_state *s);

/* events.c — Random Events */
/* "attacker" or "defender" for side index. */
const char *hm_role(const struct hm_state *s, int side);
/* The unit event e names for `side`, chosen by side `chooser` (standing lists, else the
 * default of docs/rules/hm-events.md); -1 when no unit fits (the event is impossible).
 * Sets *by to who chose. */
int hm_choose(const struct hm_state *s, int e, int side, int chooser, enum hm_chooser *by);
/* Applies event e to `side` on turn `turn`: chooses, checks what is impossible, changes the
 * model, records the effect and an event. Rally to the Flag rolls its D6 in dice. */
void hm_apply_event(const struct hm_options *o, struct hm_state *s, int turn, int e, int side,
	struct dice *dice, struct events *ev);
/* The sheet's procedure at the start of the turn: D6 (1 or 6 = event), D6 (odd attacker,
 * even defender), D20; then suppression, keeping in hand, or applying. Returns the event
 * rolled (0 none). */
int hm_random_event(const struct hm_options *o, struct hm_state *s, int turn, struct dice *dice,
	struct events *ev);
/* Plays side's held event at the start of turn `turn`. */
void hm_play_held(const struct hm_options *o, struct hm_state *s, int turn, int side,
	struct dice *dice, struct events *ev);
/* Ends effects whose last turn is before `turn`. */
void hm_expire(struct hm_state *s, int turn, struct events *ev);
/* The instruction an effect gives, for the report, into out. */
void hm_effect_text(const struct hm_state *s, const struct hm_effect *f, struct buf *out);
int hm_resolve(const struct rules_campaign *c, void *state, struct rules_turn *t);

/* orders.c */
int hm_orders_parse(void **out, const struct rules_campaign *c, const void *state, int turn,
	const char *player, const struct node *orders, const struct node *standing, struct diag *d);
void hm_orders_free(void *orders);
int hm_adjust_check(const struct rules_campaign *c, const void *state, const struct adjustment *v,
	size_t n, struct diag *d);
int hm_adjust_apply(const struct rules_campaign *c, void *state, const struct adjustment *a,
	struct buf *what);
void hm_report(const struct rules_campaign *c, const void *state, const char *player,
	struct buf *out);

#endif
