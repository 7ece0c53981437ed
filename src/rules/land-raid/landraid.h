/* landraid.h — internals of the Land Raid rule system (Peter Pig, Pieces of Eight 2019: the
 * Land Raid play sheet with the settled readings of NOTES §000), shared by its files and by
 * the unit tests, which call each mechanic directly with scripted dice. Section numbers
 * (§6, §13, §17–§24) are the rulebook's, as printed on the sheet. */
#ifndef UMPIRE_LANDRAID_H
#define UMPIRE_LANDRAID_H

#include <stddef.h>
#include "rules/rules.h"

#define LR_MAX_GRID 26       /* columns A–Z, rows 1–26 */
#define LR_MAX_ACTIONS 3     /* §17: an officer has at most 3 actions */
#define LR_MAX_DRAG 4        /* §20 Move: an officer drags up to 4 bases */
#define LR_MAX_FIGHT_BASES 4 /* §23: one officer and at most 4 bases fight */
#define LR_MAX_REDEPLOY 3    /* §18 event 6: any 3 own bases */
#define LR_MAX_LIST 64       /* any list in a standing order */
#define LR_MAX_BASES 2000    /* bases in a state (sanity bound for untrusted files) */
/* Bounds a scenario and a state file share, so that whatever `init` accepts, and whatever a
 * turn can write, the next turn reads back (an event that would pass LR_MAX_BASES is
 * impossible; loot saturates at LR_MAX_LOOT). */
#define LR_MAX_ALLOWANCE LR_MAX_BASES     /* §18 officer allowance per side */
#define LR_MAX_MARKERS (3 * LR_MAX_BASES) /* casualty markers of a side in a square */
#define LR_MAX_PLUNDER 100                /* plunder markers in a square */
#define LR_MAX_LOOT 1000000000            /* loot points taken or lost */

enum landraid_side { LR_ATTACKER, LR_DEFENDER, LR_SIDES };
/* §6: scurvy < ordinary < battle hardened; the numeric order is the quality order. */
enum landraid_quality { LR_SCURVY, LR_ORDINARY, LR_HARDENED };
enum landraid_role { LR_TROOPS, LR_OFFICER, LR_COMMANDER, LR_LOOT_CARRIER };
enum landraid_kind {
	LR_OPEN,
	LR_DOCKSIDE,
	LR_BUILDING,
	LR_IMPORTANT,
	LR_BARRACKS,
	LR_GARRISON,
	LR_KINDS
};
/* Standing order `response`: which triggers of §20/§22 response shooting are used. */
enum landraid_response { LR_RESP_ALL, LR_RESP_ON_MOVE, LR_RESP_ON_SHOT, LR_RESP_NONE };
/* Option `better-save` (§22, NOTES 000 reading 2). */
enum landraid_save { LR_SAVE_PER_CONDITION, LR_SAVE_ONCE, LR_SAVE_NONE };
/* Option `officer-casualty` (§23 "Officer (if present) is always 3rd casualty"): `third`
 * the officer falls only as the 3rd casualty, earlier ones with nobody else left fall on no
 * one; `third-or-last` he also falls earlier when no other fighting base is left. */
enum landraid_officer_casualty { LR_OFFICER_THIRD, LR_OFFICER_THIRD_OR_LAST };
/* Option `blocked-fall-back` (§23, a loser with no square to fall back to): `stay` both sides
 * stay where they are; `cut-down` the loser's bases there are removed, no markers. */
enum landraid_blocked { LR_BLOCKED_STAY, LR_BLOCKED_CUT_DOWN };
/* Option `morale-officers` (§19 "Each 5, 6 = fail = remove 1 base"): `flee` an officer is a
 * base and flees when no other base of his side is left in the square; `never` officers never
 * flee. */
enum landraid_morale_officers { LR_MORALE_OFFICERS_FLEE, LR_MORALE_OFFICERS_NEVER };
/* Option `commander-fight` (§13 "Improves square by one quality in fights"): `square` the
 * commander in the side's fighting square (the assaulters' launch square, the target square)
 * improves it; `fighting` only when he is the fighting officer. */
enum landraid_commander_fight { LR_COMMANDER_SQUARE, LR_COMMANDER_FIGHTING };
/* Event choices of §18 8–10 and 11–12. */
enum landraid_choice { LR_CHOICE_OFFICER, LR_CHOICE_SCURVY, LR_CHOICE_REMOVE_SCURVY };
enum landraid_action_kind { LR_MOVE, LR_SHOOT, LR_FIGHT, LR_PLUNDER, LR_GATHER };
/* Triggers of response shooting (§22 "Response on your face or if your opponent shoots
 * at you"). */
enum landraid_trigger { LR_TRIGGER_MOVE, LR_TRIGGER_SHOT };
/* Mechanic results: carried out, or void (an events_void was recorded). */
enum landraid_result { LR_DONE = 0, LR_VOID = 1 };

/* NULL-terminated name tables, indexed by the enums above (the YAML spellings). */
extern const char *const landraid_side_names[];
extern const char *const landraid_quality_names[];
extern const char *const landraid_role_names[];
extern const char *const landraid_kind_names[];
extern const char *const landraid_response_names[];
extern const char *const landraid_save_names[];
extern const char *const landraid_choice_names[];
extern const char *const landraid_action_names[];

/* Campaign options (campaign.yaml `options:`); see docs/rules/land-raid.md. */
struct landraid_options {
	int turns_per_player;      /* `turns-per-player`: game length, default 4 ([C]) */
	int victory_loot;          /* `victory: {loot: N}`: the attacker's winning loot; 0 none */
	int better_save;           /* `better-save`: enum landraid_save, default per-condition */
	int loot_carriers_plunder; /* `loot-carriers-plunder`: §24 dice for loot carriers, 0 */
	int max_shoot_actions;     /* `max-shoot-actions`: per player turn, default 3 (§20) */
	int max_gather_actions;    /* `max-gather-actions`: per player turn, default 3 (§20) */
	int morale_reroll_all;     /* `commander-morale-reroll`: 0 failed dice, 1 all dice */
	int ignore_scurvy_one;     /* `ignore-scurvy`: 0 any number, 1 at most one (§6) */
	int max_defender_troops;   /* `max-defender-troops`: §18 event 7 cap, default 8 */
	int officer_casualty;      /* `officer-casualty`: enum landraid_officer_casualty (§23) */
	int blocked_fall_back;     /* `blocked-fall-back`: enum landraid_blocked (§23) */
	int morale_officers;       /* `morale-officers`: enum landraid_morale_officers (§19) */
	int commander_fight;       /* `commander-fight`: enum landraid_commander_fight (§13) */
};

/* Sets every option to its default. */
void landraid_options_default(struct landraid_options *o);

struct landraid_base {
	char *id;    /* unique base id, owned */
	int side;    /* enum landraid_side */
	int role;    /* enum landraid_role */
	int quality; /* enum landraid_quality */
	int sq;      /* square index; -1 once removed (kept until compaction) */
	/* during one turn only (never saved): the officer this base acted with (§6) */
	const struct landraid_base *with;
};

struct landraid_squares { /* a list of square indices, owned */
	int *v;
	size_t n;
};

struct landraid_ids { /* a list of base ids, owned */
	char **v;
	size_t n;
};

struct landraid_redeploy { /* §18 event 6: move base to square */
	char *base;        /* owned */
	int sq;
};

/* Standing orders of one side: they persist in the state until the side changes them.
 * Every list is a preference order; entries that do not fit when used are skipped and the
 * documented default fills in. */
struct landraid_standing {
	int response;                       /* enum landraid_response, default all */
	int withdraw;                       /* §23: withdraw instead of fighting, default 0 */
	struct landraid_squares fall_back;  /* §23 fall-back squares, default A1 order */
	struct landraid_ids morale_removal; /* §19: enemy bases we remove first */
	struct landraid_squares dockside;   /* §18 2–5 (attacker): landing squares */
	struct landraid_redeploy *redeploy; /* §18 6: bases to move */
	size_t n_redeploy;
	struct landraid_squares garrison; /* §18 7 (defender): garrison building */
	int choice_8_10[2];               /* §18 8–10: options in preference order */
	size_t n_choice_8_10;
	struct landraid_squares officer_square; /* §18 8–12: where a new officer appears */
	struct landraid_squares scurvy_square;  /* §18 8–10: where 3 scurvy bases appear */
	int choice_11_12[2];                    /* §18 11–12 (attacker): options in order */
	size_t n_choice_11_12;
	struct landraid_ids remove_scurvy; /* §18 11–12 (attacker): scurvy bases to remove */
};

/* Sets s to the defaults of side (see docs/rules/land-raid.md "Standing orders"). */
void landraid_standing_default(struct landraid_standing *s, int side);
void landraid_standing_release(struct landraid_standing *s);

struct landraid_loop_entry { /* one row of the §24 plunder loop (loot loop) D6 table */
	char *text;          /* what was found, owned */
	int loot;            /* loot points it is worth (0..100) */
};

/* §24 deviation ("Roll 1D6 each. +1 for defender. +1 if battle hardened plunderer. Deviate
 * all or nothing"), as campaign data: the scenario's `deviation:` (NOTES 000 reading 5). */
struct landraid_deviation {
	int defender;        /* `defender`: added to the defender's D6, default 1 */
	int battle_hardened; /* `battle-hardened`: added to a battle-hardened group's D6, 1 */
	int tie;             /* `tie`: enum landraid_side winning a tie, default attacker */
};

struct landraid_state {
	int cols, rows;               /* grid size, 1..26 each */
	int n_squares;                /* cols * rows; square index = col * rows + row */
	char (*name)[4];              /* "A1" … per square index */
	unsigned char *kind;          /* enum landraid_kind per square */
	int *plunder;                 /* plunder markers per square */
	int *cas[LR_SIDES];           /* casualty markers per square and side */
	struct landraid_base **bases; /* owned; removed bases have sq -1 until compaction */
	size_t n_bases, cap_bases;
	int first;               /* side that moves on PBEM turn 1 */
	int allowance[LR_SIDES]; /* §18 original officer allowance (commander included) */
	int loot_taken;          /* loot points carried off by the attacker (the score) */
	int loot_lost;           /* loot points found but lost to deviation (§24) */
	struct landraid_loop_entry loop[6];  /* §24 plunder loop, rows 1..6 */
	struct landraid_deviation deviation; /* §24 deviation roll */
	struct landraid_standing standing[LR_SIDES];
	int next_new; /* number for the next base created by an event */
};

/* --- state (state.c) ------------------------------------------------------------- */

/* A new empty state of cols × rows open squares (1..26 each), attacker first, default
 * loop and standing orders. Caller frees with landraid_state_free. */
struct landraid_state *landraid_state_new(int cols, int rows);
void landraid_state_free(struct landraid_state *s);
/* Adds a base (id copied) and returns it; the id must be unused. */
struct landraid_base *landraid_base_add(struct landraid_state *s, const char *id, int side,
	int role, int quality, int sq);
/* Adds a base of side created by an event, with a fresh id "new-N". */
struct landraid_base *landraid_base_new(struct landraid_state *s, int side, int role, int quality,
	int sq);
/* The live base called id, or NULL. */
struct landraid_base *landraid_base_find(const struct landraid_state *s, const char *id);
/* Removes b from play (sq = -1); the struct stays valid until landraid_compact. */
void landraid_base_remove(struct landraid_state *s, struct landraid_base *b);
/* Frees removed bases and sorts the rest by id. */
void landraid_compact(struct landraid_state *s);
/* The square index for a name like "C2", or -1. */
int landraid_square(const struct landraid_state *s, const char *name);
int landraid_col(const struct landraid_state *s, int sq);
int landraid_row(const struct landraid_state *s, int sq);
/* Geometry (NOTES 000): face = orthogonally adjacent, corner = diagonally adjacent,
 * distance = Chebyshev. */
int landraid_face(const struct landraid_state *s, int a, int b);
int landraid_corner(const struct landraid_state *s, int a, int b);
int landraid_distance(const struct landraid_state *s, int a, int b);
/* The up to 4 face-touching squares of sq in A1 order into out; returns the count. */
int landraid_faces(const struct landraid_state *s, int sq, int out[4]);
/* 1 for the building kinds (building, important, barracks, garrison): §22 better save. */
int landraid_is_building(int kind);
/* Live bases of side in sq whose role is in role_mask (1 << role); side -1 = both. */
int landraid_count(const struct landraid_state *s, int sq, int side, unsigned role_mask);
/* Live bases of side anywhere with role in role_mask. */
int landraid_count_side(const struct landraid_state *s, int side, unsigned role_mask);
#define LR_ALL_ROLES 0xfu
#define LR_OFFICERS ((1u << LR_OFFICER) | (1u << LR_COMMANDER))
#define LR_NON_OFFICERS ((1u << LR_TROOPS) | (1u << LR_LOOT_CARRIER))
int landraid_is_officer(const struct landraid_base *b);
/* Live bases of side in sq with role in role_mask, in loss order (troops before loot
 * carriers before officers before the commander, worst quality first, then id), into out
 * (capacity max); returns the count. The default order in which a side loses bases. */
size_t landraid_bases_in(const struct landraid_state *s, int sq, int side, unsigned role_mask,
	struct landraid_base **out, size_t max);
/* Casualty markers of side in sq (+n), placed when a base is killed: 1, or 3 for the
 * commander (§13). */
void landraid_mark_casualty(struct landraid_state *s, int sq, const struct landraid_base *b);
/* Parses/emits the rule system's `game:` tree (format in docs/rules/land-raid.md). */
int landraid_state_parse(struct landraid_state **out, const struct rules_campaign *c,
	const struct node *game, struct diag *d);
struct node *landraid_state_emit(const struct landraid_state *s);
/* The state as one side may know it: side_view LR_SIDES the whole state, a side its own
 * standing orders only, -1 (the public) none: standing orders are private (issue "Hidden
 * information"; docs/rules/land-raid.md). Caller frees. */
struct node *landraid_state_emit_view(const struct landraid_state *s, int side_view);
/* Standing orders as a tree (for state and for tests). */
struct node *landraid_standing_emit(const struct landraid_state *s,
	const struct landraid_standing *st);

/* --- orders (orders.c) ------------------------------------------------------------ */

struct landraid_action {
	int kind;                  /* enum landraid_action_kind */
	int sq;                    /* move/fight: target square; shoot: target or -1 (auto) */
	struct landraid_ids bases; /* move: drag; fight: with; gather: picks */
	int has_bases;             /* fight: `with` given (else the default choice) */
};

struct landraid_officer_order {
	char *officer;              /* base id, owned */
	struct landraid_ids ignore; /* §6: scurvy bases left out of his group */
	struct landraid_ids group;  /* §6 "Officers select the bases in his group" */
	int has_group;              /* `group` given: only those bases are his */
	struct landraid_action actions[LR_MAX_ACTIONS];
	size_t n_actions;
};

/* Bits of landraid_orders.standing_set: which standing keys the file changed. */
enum {
	LR_ST_RESPONSE = 1 << 0,
	LR_ST_WITHDRAW = 1 << 1,
	LR_ST_FALL_BACK = 1 << 2,
	LR_ST_MORALE_REMOVAL = 1 << 3,
	LR_ST_DOCKSIDE = 1 << 4,
	LR_ST_REDEPLOY = 1 << 5,
	LR_ST_GARRISON = 1 << 6,
	LR_ST_CHOICE_8_10 = 1 << 7,
	LR_ST_OFFICER_SQUARE = 1 << 8,
	LR_ST_SCURVY_SQUARE = 1 << 9,
	LR_ST_CHOICE_11_12 = 1 << 10,
	LR_ST_REMOVE_SCURVY = 1 << 11,
};

struct landraid_orders {
	int side;                         /* the player's side */
	struct landraid_officer_order *v; /* in the order the officers act */
	size_t n;
	unsigned standing_set;             /* LR_ST_* bits */
	struct landraid_standing standing; /* the values of the keys in standing_set */
	int hold; /* rules.h hold_orders: no officer acts, the sheet's defaults stand in for the
	           * side's standing orders this turn (docs/rules/land-raid.md "Hold orders") */
};

/* rules.h result: how the game ended (result.c). */
void landraid_result(const struct rules_campaign *c, const void *state, struct buf *out);
/* Who won by the scenario's `victory: {loot: N}` (docs/rules/land-raid.md "Victory", after
 * §24's score, the loot carried off): the attacker with N loot or more, else the defender;
 * *winner a side name (its player id). Returns 1, or 0 when the scenario states no loot. */
int landraid_victory(const struct landraid_state *s, const struct landraid_options *o,
	const char **winner, struct buf *why);
/* rules.h orders_template: player's next order file, his officers and standing orders
 * (template.c). */
void landraid_orders_template(const struct rules_campaign *c, const void *state, int turn,
	const char *player, struct buf *out);
/* Checks and parses one player's orders and standing orders against state s (see
 * rules.h orders_parse). Caller frees *out with landraid_orders_free. */
int landraid_orders_parse(struct landraid_orders **out, const struct landraid_state *s,
	const struct landraid_options *o, const char *player, const struct node *orders,
	const struct node *standing, struct diag *d);
void landraid_orders_free(struct landraid_orders *o);
/* Parses a standing-orders map of side into st (starting from st's current values) and
 * sets the LR_ST_* bits of the keys present in *set. check_bases: base ids must name
 * live bases now (order files); state files keep ids of bases since removed. */
int landraid_standing_parse(struct landraid_standing *st, unsigned *set,
	const struct landraid_state *s, int side, const struct node *n, int check_bases,
	struct diag *d);
/* Applies the keys the file set to the side's standing orders in s. */
void landraid_standing_apply(struct landraid_state *s, const struct landraid_orders *o);

/* --- resolution ------------------------------------------------------------------- */

/* Everything a mechanic needs while a turn is resolved. */
struct landraid_ctx {
	struct landraid_state *s;
	const struct landraid_options *o;
	struct dice *dice;
	struct events *ev;
	int active;         /* the side whose player turn it is */
	const char *player; /* the active player's id (for void events) */
	int shoot_actions;  /* shoot actions carried out this turn (§20 max 3) */
	int gather_actions; /* gather actions carried out this turn (§20 max 3) */
	int lost[LR_SIDES]; /* bases removed this turn per side (summary) */
	int loot;           /* loot carried off this turn (summary) */
	int event_score;    /* §18 2D6 of this turn, 0 before */
	/* the acting officer's `group` list while his actions are carried out, else NULL */
	const struct landraid_ids *group;
	int error; /* set on an internal error (a bug) */
};

/* Initialises c for a turn of side `active` (player id = side name). */
void landraid_ctx_init(struct landraid_ctx *c, struct landraid_state *s,
	const struct landraid_options *o, struct dice *dice, struct events *ev, int active);
/* The side whose player turn PBEM turn t (1-based) is. */
int landraid_active_side(const struct landraid_state *s, int turn);
/* Removes b as a casualty of phase: casualty marker(s) in marker_sq (-1: none), counted. */
void landraid_kill(struct landraid_ctx *c, struct landraid_base *b, int marker_sq);
/* Worst quality among the troop bases of list (officers and loot carriers do not count);
 * LR_ORDINARY when there are none. §6 "Bases with officer become the worst type present". */
int landraid_worst_quality(struct landraid_base *const *v, size_t n);

/* Land Raid §18 Events: rolls 2D6 and applies the result; returns the score. */
int landraid_events(struct landraid_ctx *c);
/* §18 with the score given (the 2D6 already rolled): applies one event result. */
void landraid_event_apply(struct landraid_ctx *c, int score);

/* Land Raid §19 Morale: tests every square with casualty markers (A1 order, attacker
 * first), then clears its markers. */
void landraid_morale(struct landraid_ctx *c);
/* Tests the casualty markers of side in sq and clears them; returns bases removed. */
int landraid_morale_square(struct landraid_ctx *c, int sq, int side);

/* Land Raid §17/§20: carries out one officer's orders (order_index is 1-based in the
 * player's list): the extra-action rolls and every action in turn. */
void landraid_officer_actions(struct landraid_ctx *c, const struct landraid_officer_order *oo,
	int order_index);
/* The officer's group (§6): his side's non-officer bases in his square, less ignored
 * scurvy bases, less bases that acted with another officer this turn ("Officers select the
 * bases in his group": a base is in one officer's group a turn), and only those of c->group
 * when his order names it; in loss order, into out; returns the count. */
size_t landraid_group(const struct landraid_ctx *c, const struct landraid_base *officer,
	const struct landraid_ids *ignore, struct landraid_base **out, size_t max);
/* Marks the n bases of v as having acted with officer this turn (§6). */
void landraid_claim(struct landraid_ctx *c, const struct landraid_base *officer,
	struct landraid_base *const *v, size_t n);
/* 1 if base b may act with officer: it has not acted with another officer this turn. */
int landraid_free_for(const struct landraid_base *b, const struct landraid_base *officer);
/* §20 Move: officer (dragging the listed bases) into face-touching square to. */
int landraid_move(struct landraid_ctx *c, struct landraid_base *officer, int to,
	const struct landraid_ids *drag, int order_index);
/* qsort order of base pointers, best first: troops before loot carriers, better quality,
 * then id. Used to pick the bases that fight and those an officer gathers. */
/* A square name node (at most 8 bytes) checked against s's grid: the square's index, or -1
 * with the problem reported at n's position (the grid is the scenario's: the sheet prints none). */
int landraid_want_square(const struct landraid_state *s, const struct node *n, const char *what,
	struct diag *d);
int landraid_cmp_best(const void *a, const void *b);

/* §20 Gather: 3D6, each 5–6 brings one base from the 4 facing squares. */
int landraid_gather(struct landraid_ctx *c, struct landraid_base *officer,
	const struct landraid_ids *picks, int order_index);

/* Land Raid §22 Shooting: the officer's group shoots at target (-1: by priority). */
int landraid_shoot(struct landraid_ctx *c, struct landraid_base *officer,
	const struct landraid_ids *ignore, int target, int order_index);
/* The priority target square for shooters of side at sq (face, corner, within 3), or -1;
 * *category receives 1 face, 2 corner, 3 within 3. */
int landraid_shoot_target(const struct landraid_state *s, int sq, int side, int *category);
/* 1 if target is a legal choice for shooters of side at sq under the priority rule. */
int landraid_shoot_legal(const struct landraid_state *s, int sq, int side, int target);
/* Response shooting by the bases of `side` in from_sq at target_sq (§22: hits on 6), if
 * their standing orders allow the trigger. Returns the number of kills. */
int landraid_response(struct landraid_ctx *c, int from_sq, int side, int target_sq, int trigger);
/* Shooting dice and saves shared by action and response shooting: one die per shooter in
 * sh at the other side's bases in target_sq; misses re-rolled once for battle-hardened
 * shooters (group_quality, or each base's own quality when group_quality is -1) or a
 * target square of more than 5 bases; response hits on 6 only. who names the shooters
 * in purposes. Returns kills. */
int landraid_fire(struct landraid_ctx *c, const char *who, struct landraid_base *const *sh,
	size_t n_sh, int group_quality, int from_sq, int target_sq, int response);

/* Land Raid §23 Fighting: officer assaults target (face-touching, with opponents). */
int landraid_fight(struct landraid_ctx *c, struct landraid_base *officer,
	const struct landraid_ids *ignore, int target, const struct landraid_ids *with,
	int order_index);
/* The fall-back square for side's bases leaving sq (standing order, else first free face
 * square in A1 order), never `exclude`; -1 if none. */
int landraid_fall_back_square(const struct landraid_state *s, int sq, int side, int exclude);

/* Land Raid §24 Plunder by the officer's group in his square. */
int landraid_plunder(struct landraid_ctx *c, struct landraid_base *officer,
	const struct landraid_ids *ignore, int order_index);

/* --- report (report.c) ------------------------------------------------------------ */

/* Markdown map and base list. */
void landraid_report(const struct landraid_state *s, const struct landraid_options *o,
	struct buf *out);

/* --- map (map.c) ------------------------------------------------------------------ */

/* The SVG map of s after the turn m describes (rules.h draw_map); before is m->before. */
void landraid_draw_map(const struct landraid_state *s, const struct landraid_state *before,
	const struct rules_map *m, struct buf *out);

/* --- small helpers shared by the files --------------------------------------------- */

void landraid_ids_release(struct landraid_ids *l);
void landraid_ids_add(struct landraid_ids *l, const char *id);
int landraid_ids_has(const struct landraid_ids *l, const char *id);
void landraid_squares_release(struct landraid_squares *l);
void landraid_squares_add(struct landraid_squares *l, int sq);
void landraid_standing_copy(struct landraid_standing *dst, const struct landraid_standing *src);

#endif
