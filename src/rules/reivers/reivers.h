/* reivers.h — Border Reivers skirmish (`reivers`): figures one by one on a measured tabletop
 * (tenths of an inch), cards per side and for the animals, d10 morale by class, firearms that
 * spook horses, melee, wounds and herding. Shared between the files of this rule system and
 * its unit tests; every rule is cited as "Border Reivers §Section" (docs/rules/reivers.md). */
#ifndef UMPIRE_REIVERS_H
#define UMPIRE_REIVERS_H

#include <stddef.h>
#include <stdint.h>

#include "rules/rules.h"
#include "rules/lib/table.h"

#define RV_MAX_SIDES 16
#define RV_MAX_FIGURES 10000 /* figures, and groups, in a scenario: 12 sides of 800 */
#define RV_MAX_ANIMALS 100
#define RV_MAX_FEATURES 64
#define RV_MAX_POINTS 64   /* vertices of one terrain polygon or obstacle line */
#define RV_MAX_PATH 16     /* waypoints of one ordered path */
#define RV_MAX_PLACE 25    /* figures placed by one order */
#define RV_MAX_ORDERS 1000 /* orders in one file (one a group) */
#define RV_MAX_MELEES 64   /* melees going on at once */
#define RV_COORD_MAX 2400  /* 240": the largest table side, in tenths */
#define RV_ID_LEN 64
#define RV_MAX_RULED 100 /* umpire's rulings on sight and cover in one turn (core: 100 items) */

#define RV_INCH 10          /* tenths of an inch */
#define RV_CONTACT 10       /* base to base: within 1" (docs/rules/reivers.md) */
#define RV_GROUP_RADIUS 60  /* the group within 6" of its leader (§Movement) */
#define RV_OBSTACLE_COST 30 /* a fence or wall costs 3" (§Movement) */
#define RV_SPOOK_RANGE 90   /* horses within 9" of a discharge (§Firing) */
#define RV_SPOT_RANGE 60    /* a hidden figure is seen within 6" (option spot-range) */

enum rv_class { RV_POLTROON, RV_REGULAR, RV_VETERAN, RV_FYREBRANDE };
enum rv_role { RV_FIGURE, RV_LEADER, RV_HEIDMAN };
enum rv_weapon { RV_HAND, RV_DAGG, RV_HACKBUTT, RV_CALIVER, RV_LATCH, RV_LONGBOW };
enum rv_armour { RV_HELMET, RV_BREAST, RV_PLATES, RV_JACK, RV_SHIELD, RV_N_ARMOUR };
enum rv_feature { RV_WOODS, RV_WATER, RV_BUILDING, RV_ROUGH, RV_OPEN_AREA };
enum rv_cover { RV_NO_COVER, RV_PART, RV_WHOLE };
enum rv_mcover { RV_NO_MCOVER, RV_SOFT, RV_HARD };
enum rv_line { RV_ROAD, RV_FENCE, RV_WALL };
enum rv_animal { RV_CATTLE, RV_SHEEP, RV_HORSE };
/* A group's morale state (§Morale results). */
enum rv_morale { RV_STEADY, RV_SHAKEN, RV_BROKEN };
enum rv_spook_first { RV_FIRST_GAME, RV_FIRST_HORSE };

extern const char *const rv_class_names[],
	*const rv_role_names[],
		*const rv_weapon_names[],
			*const rv_armour_names[],
				*const rv_feature_names[],
					*const rv_cover_names[],
						*const rv_mcover_names[],
							*const rv_line_names[],
								*const rv_animal_names[],
									*const rv_morale_names[];

/* One row of the weapons table (§Firing). */
struct rv_weapon_row {
	int reload;  /* Load actions in separate turns before the next shot (0: at once) */
	int close;   /* close range, tenths */
	int range;   /* long range, tenths */
	int firearm; /* 1 if its discharge spooks horses */
};
extern const struct rv_weapon_row rv_weapons[];

/* Campaign options (docs/rules/reivers.md). */
struct rv_options {
	enum rv_spook_first spook_first; /* spook-first: game (default) | horse */
	int herd_die;                    /* herd-die: 10 (default) or 6 */
	int spook_each;                  /* spook-test: 0 volley (default), 1 discharge */
	int remount_own; /* remount-horses: 0 any loose horse (default), 1 own side's */
	int spot_range;  /* spot-range: an enemy within it in sight reveals a hidden group,
	                  * tenths (default 6"; 0: never seen, only acting reveals) */
	char raider[RV_ID_LEN + 1]; /* victory raider: the side that wins by lifting animals;
	                             * "" when the scenario states no victory */
	int victory_animals;        /* victory animals: how many the raider must hold */
};

/* A terrain area or a linear feature. */
struct rv_feature_def {
	char id[RV_ID_LEN + 1];
	int is_line;           /* 0: area (polygon), 1: road/fence/wall (polyline) */
	int kind;              /* enum rv_feature (area) or enum rv_line (line) */
	int blocks_los;        /* areas only */
	enum rv_cover cover;   /* vs firing */
	enum rv_mcover mcover; /* vs melee */
	struct table_pt v[RV_MAX_POINTS];
	size_t n;
};

struct rv_figure {
	char id[RV_ID_LEN + 1];
	int side; /* index into the campaign's players */
	char group[RV_ID_LEN + 1];
	int gi; /* rv_state.group index of group, set when the state is read */
	enum rv_role role;
	enum rv_class cls;
	int mounted;
	int horse_spooked; /* the figure's horse has been spooked before (spook-first: horse) */
	enum rv_weapon weapon;
	int reload;      /* Load actions still needed (0: loaded) */
	int loaded_turn; /* the turn of the last Load action (one a turn) */
	int armour[RV_N_ARMOUR];
	int hits; /* unsaved hits taken */
	int dead;
	int stunned_until;         /* stunned while turn <= this */
	int aim_turn;              /* aimed in this turn: +1 to a shot in the next (§Firing) */
	char horse[RV_ID_LEN + 1]; /* mounted: the id his horse takes when loose, if not
	                            * "<id>-horse" (he caught another's); else empty */
	struct table_pt at;
	/* §Melee "shield – front only": the way he faces, the displacement of his last move
	 * (tenths; 0, 0: never moved and not given, he faces every way) (docs/rules/reivers.md). */
	int32_t face_dx, face_dy;
};

struct rv_animal_def {
	char id[RV_ID_LEN + 1];
	enum rv_animal kind;
	int spooked;
	int owner; /* side whose herd it is, -1 none (who holds it at the end) */
	struct table_pt at;
	int gone; /* a horse caught and ridden this turn: dropped at the end of resolve */
};

/* A group's lasting state (per side, by name). */
struct rv_group {
	char id[RV_ID_LEN + 1];
	int side;
	enum rv_morale morale;
	int lost;          /* figures lost (dead) */
	int unchecked;     /* casualties since its last morale test */
	int leader_killed; /* no leader: load/fire/retreat to cover until a new one */
	int passed_turn;   /* turn of its last passed morale test */
	int hidden;        /* may hold (§Sequence of Play) */
};

/* A melee going on (a tie continues in the next action phase, §Melee). */
struct rv_melee {
	int attackers[3]; /* figure indexes, -1 unused */
	int defender;
	int started; /* turn it started (charging +1 in that turn only) */
};

/* An umpire's ruling on a fact of the table for the turn being played (core/adjust.h,
 * docs/rules/reivers.md): it holds from its adjustment to the end of that turn's resolve. */
enum rv_rule { RV_RULE_COVER, RV_RULE_LOS, RV_RULE_RANGE };
/* A range band (§Firing): beyond long range (no shot), long range, close range (+1). */
enum rv_band { RV_BEYOND, RV_LONG, RV_CLOSE };
extern const char *const rv_band_names[];
struct rv_ruled {
	enum rv_rule kind; /* LOS: the line of sight between from and to (either way); COVER:
	                    * to's cover against from; RANGE: to's range band from from */
	int from;          /* figure index: the one who sees or shoots */
	int to;            /* figure index: the one seen or shot at */
	int value;         /* LOS: 1 clear, 0 blocked; COVER: enum rv_cover; RANGE: enum rv_band */
};

struct rv_state {
	int width, height; /* table, tenths */
	struct rv_feature_def *feat;
	size_t n_feat;
	struct rv_figure *fig;
	size_t n_fig;
	struct rv_animal_def *animal;
	size_t n_animal;
	struct rv_group *group;
	size_t n_group;
	struct rv_melee melee[RV_MAX_MELEES];
	size_t n_melee;
	int discharged; /* a firearm has been fired in the game (spook-first: game) */
	int turns;      /* last turn, 0: open-ended */
	int n_sides;
	int heidman[RV_MAX_SIDES];           /* figure index of each side's heidman, -1 none */
	struct rv_ruled ruled[RV_MAX_RULED]; /* this turn's rulings; never in state.yaml */
	size_t n_ruled;
	/* Hash indexes of the figures' and the groups' ids (open addressing, slot = index + 1,
	 * 0 empty; mask + 1 slots), filled as the state is read: look-ups in O(1). */
	uint32_t *fig_ix, *group_ix;
	size_t fig_mask, group_mask;
	/* Each group's figures in index order: g_first[group], then f_next[figure]; SIZE_MAX
	 * ends a list. Set when the state is read (a figure never changes group). */
	size_t *g_first, *f_next;
};

/* The figures of group g in index order:
 * for (size_t i = rv_first(s, g); i < s->n_fig; i = rv_next(s, i)). */
static inline size_t rv_first(const struct rv_state *s, int g)
{
	return g >= 0 && (size_t)g < s->n_group ? s->g_first[g] : SIZE_MAX;
}
static inline size_t rv_next(const struct rv_state *s, size_t i)
{
	return s->f_next[i];
}

enum rv_action {
	RV_NONE,
	RV_MOVE,
	RV_HERD,
	RV_CHARGE,
	RV_LOAD,
	RV_FIRE,
	RV_AIM,
	RV_DISMOUNT,
	RV_REMOUNT
};
extern const char *const rv_action_names[];

struct rv_place {
	int fig;
	struct table_pt at;
};

struct rv_order {
	int index; /* 1-based in the file */
	int group; /* rv_state.group index */
	enum rv_action action;
	struct table_pt path[RV_MAX_PATH];
	size_t n_path;
	struct rv_place place[RV_MAX_PLACE];
	size_t n_place;
	int target;     /* fire/charge: figure index; -1 none */
	int animals[8]; /* herd */
	size_t n_animals;
	int hold;          /* act after the deck (hidden groups only) */
	int appoint;       /* new leader named by the heidman: figure index, -1 none */
	int appoint_group; /* its group */
};

struct rv_orders {
	int side;
	struct rv_order *v;
	size_t n;
	int stun; /* standing: attackers stun rather than wound in melee (§Wounds) */
};

/* ---- state.c ---- */
void rv_options_default(struct rv_options *o);
int rv_options_parse(void **out, const struct node *opts, struct diag *d);
/* Who won by the scenario's `victory: {raider: P, animals: N}` (docs/rules/reivers.md
 * "Victory"): the raider when he holds N head of cattle and sheep or more at the end (loose
 * horses do not count), else the other side holding the most (equal: a draw). Returns 1, or 0 when the scenario states none. */
int rv_victory(const struct rules_campaign *c, const void *state, const char **winner,
	struct buf *why);
struct node *rv_options_emit(const void *opts);
void rv_options_free(void *opts);
int rv_state_parse(void **out, const struct rules_campaign *c, const struct node *game,
	struct diag *d);
struct node *rv_state_emit(const struct rules_campaign *c, const void *state);
/* Border Reivers §Sequence of Play (hidden groups, docs/rules/reivers.md): the state as player
 * may know it (NULL: the public view, what a sealed campaign's state.yaml holds): the whole
 * state but another side's hidden groups and their figures. Caller frees. */
struct node *rv_state_view(const struct rules_campaign *c, const void *state, const char *player);
void rv_state_free(void *state);
/* rules.h state_clone: a copy of state, as state_parse would read it from state_emit's tree.
 * Caller frees with rv_state_free. */
void *rv_state_clone(const struct rules_campaign *c, const void *state);
/* Parses a point [x, y] in tenths within the table. Returns 0 or -1 (reported). */
int rv_want_pt(const struct node *n, const struct rv_state *s, struct table_pt *out,
	struct diag *d);
/* rules.h result: how the game ended (result.c). */
void rv_result(const struct rules_campaign *c, const void *state, struct buf *out);
/* rules.h orders_template: player's next order file (template.c). */
void rv_orders_template(const struct rules_campaign *c, const void *state, int turn,
	const char *player, struct buf *out);
int rv_figure_find(const struct rv_state *s, const char *id);
int rv_group_find(const struct rv_state *s, int side, const char *id);
int rv_animal_find(const struct rv_state *s, const char *id);
/* 1 if figure f is in a hidden group of a side other than side (-1: any side's), which side
 * may not see (§Sequence of Play, hidden groups). */
int rv_hidden_from(const struct rv_state *s, int f, int side);
/* The side player plays (his index in the campaign's players), or -1 (player NULL too). */
int rv_side_of(const struct rules_campaign *c, const char *player);
/* The group's leader (alive), or -1. */
int rv_group_leader(const struct rv_state *s, int g);

/* ---- map.c ---- */
/* The SVG map of the table as player sees it (rules.h draw_map): another side's hidden
 * groups never drawn, in the state or in m->before. */
void rv_map(const struct rules_campaign *c, const void *state, const struct rules_map *m,
	const char *player, struct buf *out);
/* rules.h map_as_public: 1 when player's side has no hidden group in the state nor in
 * m->before, the only thing his map shows and the public one does not (rv_hidden_from). */
int rv_map_as_public(const struct rules_campaign *c, const void *state, const struct rules_map *m,
	const char *player);

/* ---- geometry.c: the table (Border Reivers §Firing, §Movement, §Melee) ---- */
/* 1 if a sight line from a to b exists: no area that blocks sight lies across it (areas that
 * hold a or b do not block: a figure in a wood sees out). */
int rv_los(const struct rv_state *s, struct table_pt a, struct table_pt b);
/* Cover of a figure at b shot at from a: the best of the areas holding b and the obstacles
 * the sight line crosses within 1" of b. */
enum rv_cover rv_fire_cover(const struct rv_state *s, struct table_pt a, struct table_pt b);
/* Line of sight from figure f to figure t: an umpire's ruling for the turn on the pair (either
 * way) if there is one, else rv_los. *ruled (may be NULL) is set to 1 when a ruling decided. */
int rv_fig_los(const struct rv_state *s, int f, int t, int *ruled);
/* Cover of figure t shot at by figure f: an umpire's ruling for the turn on the pair if there
 * is one, else rv_fire_cover. *ruled (may be NULL) is set to 1 when a ruling decided. */
enum rv_cover rv_fig_cover(const struct rv_state *s, int f, int t, int *ruled);
/* Border Reivers §Firing: the range band of figure t from figure f with f's weapon (close:
 * within its close range, long: within its long range, else beyond): an umpire's ruling for
 * the turn on the pair (from f to t only) if there is one, else the measured distance. *ruled
 * (may be NULL) is set to 1 when a ruling decided. */
enum rv_band rv_fig_range(const struct rv_state *s, int f, int t, int *ruled);
/* Melee cover of a figure at p: the best of the areas holding it and obstacles within 1". */
enum rv_mcover rv_melee_cover(const struct rv_state *s, struct table_pt p);
/* 1 if p lies within 1" of a road. */
int rv_on_road(const struct rv_state *s, struct table_pt p);
/* Number of fences and walls a leg a->b crosses. */
int rv_obstacles_crossed(const struct rv_state *s, struct table_pt a, struct table_pt b);
/* Follows path w[0..n-1] with budget tenths of movement (woods/water at half speed, +3" per
 * obstacle, a leg crossing one taken whole or not at all); *out receives where it stops.
 * Returns 1 if the whole path was followed. */
int rv_move_along(const struct rv_state *s, const struct table_pt *w, size_t n, int budget,
	struct table_pt *out);
/* The point (x, y), tenths, each coordinate brought back to the table's edge it is past: every
 * position the rules write stays on the table (docs/rules/reivers.md "The table's edge"). */
struct table_pt rv_on_table(const struct rv_state *s, int64_t x, int64_t y);
/* The point dist tenths from p towards clock hour h (1..12, 12 up the table), kept on the
 * table. */
struct table_pt rv_clock_step(const struct rv_state *s, struct table_pt p, int hour, int dist);

/* ---- mechanics.c: one function per rule, dice through d ---- */
/* Border Reivers §Morale: the modified morale of group g (base of its leader's class, or the
 * best class in the group when leaderless). */
int rv_morale_target(const struct rv_state *s, int g);
/* Tests group g's morale (d10 <= target, "0" is 10): sets its morale state; returns 0 on a
 * pass, else the margin of failure (1..). */
int rv_morale_test(struct rv_state *s, int g, int turn, struct dice *d, struct events *e,
	const char *why);
/* Border Reivers §Movement: the movement roll in tenths for figure f (2d6 foot, 3d6 horse;
 * on a road one more d6 and the lowest dropped). */
int rv_move_roll(const struct rv_state *s, int f, struct dice *d);
/* Border Reivers §Firing: figure f shoots at figure t. Returns 1 on a hit that wounds, 0
 * otherwise (miss, ricochet, no shot). */
int rv_fire(struct rv_state *s, const struct rv_options *o, int f, int t, int turn, struct dice *d,
	struct events *e);
/* Border Reivers §Sequence of Play (hidden groups, docs/rules/reivers.md): group g, if
 * hidden, is revealed to every side; how says why (an event "G is revealed: how"). */
void rv_reveal(struct rv_state *s, int g, struct events *e, const char *how);
/* Border Reivers §Firing: the horses within 9" of a discharge at p roll to spook (a hidden
 * group whose horses roll is revealed first). */
void rv_spook(struct rv_state *s, const struct rv_options *o, struct table_pt p, int turn,
	struct dice *d, struct events *e);
/* Border Reivers §Wounds: one unsaved hit on figure f; stun: the attacker chose to stun. */
void rv_hit(struct rv_state *s, int f, int stun, int turn, struct events *e);
/* Border Reivers §Melee: one round of melee m. Returns 1 attacker won, -1 defender won, 0 a
 * tie (the melee continues). */
int rv_melee_round(struct rv_state *s, struct rv_melee *m, int turn, int stun, struct dice *d,
	struct events *e);
/* Border Reivers §Herding: group g's herd test for n animals (melee6, fire12: a melee within
 * 6", firing within 12" this turn; wounded: the herding leader is wounded, -1). Returns 1 on
 * success. */
int rv_herd_test(const struct rv_options *o, int n, int melee6, int fire12, int wounded,
	struct dice *d, struct events *e);
/* Border Reivers §Wounds: 1 if figure f is wounded (a leader hit once, a heidman twice): -1
 * to all his later die rolls (docs/rules/reivers.md says how each roll counts it). */
int rv_wounded(const struct rv_figure *f);
/* Border Reivers §Melee (shield front only): figure f has moved from `from` to where he stands
 * now; he faces that way (no move: his facing is kept). */
void rv_face(struct rv_figure *f, struct table_pt from);
/* 1 if point p lies in front of figure f: strictly ahead of the line through him square to
 * his facing (a figure with no facing faces every way). */
int rv_in_front(const struct rv_figure *f, struct table_pt p);
/* Border Reivers §Firing (a rider thrown), Remounting (docs/rules/reivers.md): mounted figure f
 * is on foot and his horse stands loose at his place, an animal of kind horse owned by his
 * side, spooked or not, named as he rode it ("<id>-horse" unless he had caught another; made
 * unique with "-2", "-3"... if that id is taken). Returns the animal's index, or -1 when the
 * table holds RV_MAX_ANIMALS already (the horse is lost). */
int rv_horse_loose(struct rv_state *s, int f, int spooked);
/* Remounting: 1 if figure f may catch and mount loose horse a now: f alive, on foot, not
 * stunned in turn, within 1" of it; a a horse not caught this turn, not spooked, and (option
 * remount-horses: own) held by f's side or by nobody. */
int rv_can_remount(const struct rv_state *s, const struct rv_options *o, int f, int a, int turn);
/* Remounting: figure f mounts loose horse a (checked with rv_can_remount); the horse leaves the
 * animals at the end of the turn. */
void rv_remount(struct rv_state *s, int f, int a, struct events *e);
/* Scatters animal a (d6", 2d6" if spooked) or gallops it (2d6") towards a d12 clock hour. */
void rv_animal_scatter(struct rv_state *s, int a, int gallop, struct dice *d, struct events *e);

/* ---- adjust.c: the umpire's rulings on line of sight and cover (core/adjust.h) ---- */
int rv_adjust_check(const struct rules_campaign *c, const void *state, const struct adjustment *v,
	size_t n, struct diag *d);
int rv_adjust_apply(const struct rules_campaign *c, void *state, const struct adjustment *a,
	struct buf *what);

/* ---- orders.c, turn.c ---- */
int rv_orders_parse(void **out, const struct rules_campaign *c, const void *state, int turn,
	const char *player, const struct node *orders, const struct node *standing, struct diag *d);
void rv_orders_free(void *orders);
int rv_resolve(const struct rules_campaign *c, void *state, struct rules_turn *t);
void rv_report(const struct rules_campaign *c, const void *state, const char *player,
	struct buf *out);

#endif
