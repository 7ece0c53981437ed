/* nhis.h — internal interface of the "No Honor in Surrender" rule system (Lock 'n Load
 * Publishing): the hex map, units, options, parsed orders, and the mechanics (geometry, line
 * of sight, terrain chart, Fire Attack Table, morale, damage, rally, movement) exposed so
 * the Check suites can test each one alone. Readings are documented in docs/rules/nhis.md;
 * the spec is the NHiS play sheet (Fire Attack Table, its DRMs and results, terrain chart)
 * with the reconstructions of NOTES §004. */
#ifndef UMPIRE_NHIS_H
#define UMPIRE_NHIS_H

#include <stddef.h>
#include "rules/rules.h"

#define NHIS_MAX_COLS 99     /* hex names have two digits of column ... */
#define NHIS_MAX_ROWS 99     /* ... and two of row */
#define NHIS_MAX_ELEVATION 9 /* hill levels */
#define NHIS_MAX_UNITS 200   /* units in a scenario */
#define NHIS_MAX_IMPULSES 64 /* impulses in one order file */
#define NHIS_MAX_PATH 32     /* hexes in one move */
#define NHIS_MAX_OPP 32      /* opportunity-fire entries in standing orders */
#define NHIS_MAX_NATIONS 8   /* nationalities in one option list */
#define NHIS_NATION_LEN 32   /* bytes of a nationality name */

/* Terrain of a hex (NHiS terrain chart). Hill is elevation, Path/Road a flag, and Foxhole,
 * Bunker, Cave, Wreck features, because each combines with the hex's other terrain. */
enum nhis_terrain {
	NHIS_OPEN,
	NHIS_BUILDING,
	NHIS_HUTS,
	NHIS_ROUGH,
	NHIS_LAVA,
	NHIS_TREES,
	NHIS_TALL_GRASS,
	NHIS_BRUSH,
	NHIS_BEACH,
	NHIS_PADDY,
	NHIS_TERRAIN_COUNT
};
enum nhis_feature {
	NHIS_NO_FEATURE,
	NHIS_FOXHOLE,
	NHIS_BUNKER,
	NHIS_CAVE,
	NHIS_WRECK,
	NHIS_FEATURE_COUNT
};
enum nhis_utype {
	NHIS_SQUAD,
	NHIS_LEADER,
	NHIS_MG,
	NHIS_MORTAR,
	NHIS_FLAMETHROWER,
	NHIS_TANK,
	NHIS_UTYPE_COUNT
};
enum nhis_mode { NHIS_MODE_MOVE, NHIS_MODE_CHARGE, NHIS_MODE_CRAWL, NHIS_MODE_COUNT };
enum nhis_result {
	NHIS_NO_EFFECT,
	NHIS_HIT,
	NHIS_HIT1,
	NHIS_DAMAGED,
	NHIS_DAMAGED2,
	NHIS_DAMAGED3
};
enum nhis_rally { NHIS_RALLY_LEADERSHIP, NHIS_RALLY_PLAIN };
enum nhis_hexside { NHIS_HEXSIDE_EITHER, NHIS_HEXSIDE_BOTH };
/* Option `tank-morale`: `nationality` tanks are Unshakable only if their side's nationality
 * is (NOTES §004: Unshakable is a nationality property); `unshakable` every tank is. */
enum nhis_tank_morale { NHIS_TANK_NATIONALITY, NHIS_TANK_UNSHAKABLE };

/* Markers (NHiS Fire Attack Table DRMs name Move, Fire, Charge; Crawl is the crawling mode). */
#define NHIS_MARK_MOVE (1u << 0)
#define NHIS_MARK_FIRE (1u << 1)
#define NHIS_MARK_CHARGE (1u << 2)
#define NHIS_MARK_CRAWL (1u << 3)

/* Names as written in scenario, state and order files, indexed by the enums above;
 * NULL-terminated for node_want_enum. */
extern const char *const nhis_terrain_names[];
extern const char *const nhis_feature_names[];
extern const char *const nhis_utype_names[];
extern const char *const nhis_mode_names[];
extern const char *const nhis_result_names[]; /* "no effect", "Hit", "Hit-1", ... */

/* Campaign options (options_parse). Defaults in nhis_options_default. */
#define NHIS_MAX_VICTORY_HEXES 32

struct nhis_options {
	int night_visibility; /* hexes; 0 = daylight, no night rules (NHiS 18.0) */
	char unshakable[NHIS_MAX_NATIONS][NHIS_NATION_LEN + 1]; /* Unshakable nationalities (8.2) */
	int n_unshakable;
	char banzai[NHIS_MAX_NATIONS][NHIS_NATION_LEN + 1]; /* nationalities that Banzai charge */
	int n_banzai;
	enum nhis_rally rally;     /* rally: 1d6 <= morale (+ leadership) */
	int hill_blocks_los;       /* 1: higher ground between firer and target blocks */
	enum nhis_hexside hexside; /* lines along a hexside: clear if either side is clear */
	int building_cost;         /* Wooden Building movement cost (NOTES [I]: 2) */
	int building_cover;        /* Wooden Building cover factor (NOTES [I]: 3) */
	enum nhis_tank_morale tank_morale; /* `tank-morale`, default nationality */
	int victory;                       /* `victory:` stated (docs/rules/nhis.md "Victory") */
	int victory_hex[NHIS_MAX_VICTORY_HEXES]; /* its objective hexes, col*100+row */
	int n_victory_hex;
	int hex_points;  /* points a side scores for each objective hex it holds alone */
	int unit_points; /* points a side scores for each enemy unit eliminated */
};

/* One hex of the map. */
struct nhis_hex {
	unsigned char terrain;   /* enum nhis_terrain */
	unsigned char feature;   /* enum nhis_feature */
	unsigned char elevation; /* 0 = ground; >= 1 a hill of that level */
	unsigned char road;      /* 1: Path/Road */
};

/* The map: cols x rows hexes named CCRR; v[(col-1) * rows + (row-1)]. */
struct nhis_map {
	int cols, rows;     /* 1..99 each */
	int terrain;        /* the default terrain (for state_emit) */
	struct nhis_hex *v; /* owned */
};

/* A side of a counter. */
struct nhis_values {
	int firepower;  /* printed firepower */
	int range;      /* printed range, hexes */
	int movement;   /* movement points */
	int morale;     /* morale */
	int leadership; /* leaders only; 0 otherwise */
};

struct nhis_unit {
	char *id; /* owned; unique identifier */
	int side; /* index into state->side */
	enum nhis_utype type;
	struct nhis_values full;    /* printed front */
	struct nhis_values reduced; /* printed reduced side */
	int hex;                    /* col * 100 + row */
	int is_reduced;             /* on its reduced side */
	int shaken;                 /* Shaken; else Prepared */
	int eliminated;             /* removed from play (kept so orders can name it) */
	unsigned markers;           /* NHIS_MARK_* */
	/* during one impulse only (never saved): */
	int moving;      /* in the moving stack right now */
	int banzai;      /* moving by Banzai charge */
	int stopped;     /* must stop moving / end its impulse */
	int damaged_now; /* reduced or removed by the current attack */
};

/* One standing opportunity-fire order: when an enemy moves into a hex in LOS within
 * `within` hexes of `hex`, the listed units there (all if none listed) fire at it, once. */
struct nhis_opportunity {
	int hex;    /* col * 100 + row */
	int within; /* hexes */
	int *units; /* unit indices; owned; NULL/0: every unit in hex */
	size_t n_units;
	int used; /* fired this turn (never saved) */
};

struct nhis_side {
	char *player;                 /* owned; a campaign player id */
	char *nationality;            /* owned; "japanese", "us", ... */
	struct nhis_opportunity *opp; /* standing orders in force; owned */
	size_t n_opp;
};

struct nhis_state {
	struct nhis_map map;
	struct nhis_side side[2];
	int initiative;          /* side index that takes the first impulse */
	int turns;               /* last turn of the game; 0 = open-ended */
	struct nhis_unit *units; /* owned, scenario order */
	size_t n_units;
};

/* One impulse of an order file. */
struct nhis_impulse {
	int index;  /* 1-based position in `orders` */
	int hex;    /* activated hex */
	int *units; /* unit indices; owned; n_units 0 = every unit there */
	size_t n_units;
	int path[NHIS_MAX_PATH]; /* hexes entered in turn */
	size_t n_path;           /* 0 = no move */
	enum nhis_mode mode;
	int fire;  /* target hex, or 0 = no fire */
	int melee; /* `melee: true`: the path's last hex may hold the enemy (melee, the umpire's) */
};

struct nhis_orders {
	struct nhis_impulse *v; /* owned */
	size_t n;
	int has_standing;             /* 1: replace the side's standing orders */
	struct nhis_opportunity *opp; /* owned */
	size_t n_opp;
	int hold; /* rules.h hold_orders: no impulse, its opportunity fire set aside this turn
	           * (docs/rules/nhis.md "Hold orders") */
};

/* Everything a mechanic needs to change the state and record what happened. */
struct nhis_ctx {
	struct nhis_state *s;
	const struct nhis_options *o;
	struct dice *dice;
	struct events *ev;
	const char *phase; /* events phase: "rally", "operations", ... */
};

/* ---- options and state (state.c) ---- */

/* Fills o with the defaults: day, Unshakable and Banzai [japanese], rally with leadership,
 * hills block, clear if either side of a hexside is clear, Wooden Building cost 2 cover 3. */
void nhis_options_default(struct nhis_options *o);
int nhis_options_parse(void **out, const struct node *opts, struct diag *d);
struct node *nhis_options_emit(const void *opts);
void nhis_options_free(void *opts);
int nhis_state_parse(void **out, const struct rules_campaign *c, const struct node *game,
	struct diag *d);
struct node *nhis_state_emit(const struct rules_campaign *c, const void *state);
/* The state as one side may know it: side_view 2 the whole state, 0 or 1 that side's own
 * opportunity-fire orders only, -1 (the public) none: standing orders are private (docs/
 * fairness.md "Sealed turns"). Caller frees. */
struct node *nhis_state_emit_view(const struct rules_campaign *c, const void *state, int side_view);
void nhis_state_free(void *state);
/* 1 if nationality is in list. */
int nhis_nation_in(const char list[][NHIS_NATION_LEN + 1], int n, const char *nationality);
/* The unit called id, or -1. */
int nhis_unit_find(const struct nhis_state *s, const char *id);
/* A unit id node of a list in side's orders: a unit of the scenario, side's, and not among
 * listed[0..n_listed) already. Its index, or -1 with the problem reported at un. */
int nhis_want_listed_unit(const struct nhis_state *s, int side, const struct node *un,
	const int *listed, size_t n_listed, struct diag *d);
/* A hex name on map m (a four-digit scalar naming a hex of the map) into *out. */
int nhis_want_hex(const struct nhis_map *m, const struct node *n, const char *what, int *out,
	struct diag *d);
/* Parses a list of opportunity-fire orders of side (standing orders: {hex, within, units})
 * into *out (caller frees with nhis_opportunity_free). at_hex: also require the listed units
 * to stand in the hex now (order files; not state files). */
int nhis_opportunity_parse(const struct nhis_state *s, int side, const struct node *seq, int at_hex,
	struct nhis_opportunity **out, size_t *n, struct diag *d);
void nhis_opportunity_free(struct nhis_opportunity *v, size_t n);
/* The standing orders as a tree (canonical order). */
struct node *nhis_opportunity_emit(const struct nhis_state *s, const struct nhis_opportunity *v,
	size_t n);

/* ---- hex geometry, terrain, line of sight (map.c) ---- */

/* Parses a four-digit hex name "CCRR" (column then row, each 01..99) into col*100+row.
 * Returns 0, or -1 if s is not that. Does not check the map. */
int nhis_hex_parse(const char *s, int *out);
/* Writes the four-digit name of hex into out (5 bytes). */
void nhis_hex_name(int hex, char out[5]);
/* 1 if hex lies on the map. */
int nhis_on_map(const struct nhis_map *m, int hex);
/* The hex at hex, or NULL when off the map. */
const struct nhis_hex *nhis_map_at(const struct nhis_map *m, int hex);
/* Cube coordinates of a hex (offset convention in docs/rules/nhis.md: columns are vertical,
 * even columns sit half a hex lower): x = col, z = row - floor((col-1)/2), y = -x-z. */
void nhis_hex_cube(int hex, int *x, int *y, int *z);
/* Hex distance (steps between centres). */
int nhis_distance(int a, int b);
/* 1 if a and b share a hexside. */
int nhis_adjacent(int a, int b);
/* Writes into out the hexes a line from a's centre to b's centre passes through, strictly
 * between them, in order, sampled with the nudge `side` (+1 or -1) that settles lines along
 * a hexside; hexes off the map are written as 0. Returns the count (distance - 1). out must
 * hold at least nhis_distance(a, b) entries. */
size_t nhis_line(int a, int b, int side, int *out);
/* 1 if the intervening hex h blocks a line of sight between a and b (terrain that blocks
 * LOS unless both ends are higher; a hill at least as high as both ends and higher than
 * one). */
int nhis_hex_blocks(const struct nhis_map *m, const struct nhis_options *o, int a, int b, int h);
/* Line of sight from a to b (NHiS terrain chart "Blocks LOS"). Returns 1 if clear; else 0
 * and *blocker (may be NULL) is the first blocking hex. */
int nhis_los(const struct nhis_map *m, const struct nhis_options *o, int a, int b, int *blocker);
/* Movement points to enter adjacent hex `to` from `from` (terrain chart: terrain cost, 1
 * along a road/path, Trees 1 for `jungle` units (Japanese), +1 entering from lower). */
int nhis_move_cost(const struct nhis_map *m, const struct nhis_options *o, int from, int to,
	int jungle);
/* Cover factor of target hex when fired on from firer hex (terrain chart). */
int nhis_cover(const struct nhis_map *m, const struct nhis_options *o, int firer, int target);
/* 1 if the target hex is one of the sheet's two-column-shift terrains (Building, Hut,
 * Rough/Lava Rock, Trees, Brush, Tall Grass, Cave, Wreck). */
int nhis_shift_terrain(const struct nhis_map *m, int target);

/* ---- the SVG map (svgmap.c) ---- */

/* The SVG map of s after the turn m describes (rules.h draw_map). */
void nhis_draw_map(const struct nhis_state *s, const struct rules_map *m, struct buf *out);

/* ---- fire (fire.c) ---- */

/* The Fire Attack Table: the firepower of each column, and the result for a column index
 * (0..8) and a 2d6 roll (2..12). Every blank cell and row 12 is no effect. */
#define NHIS_FAT_COLUMNS 9
extern const int nhis_fat_firepower[NHIS_FAT_COLUMNS];
enum nhis_result nhis_fat_lookup(int column, int roll);
/* The column index for a final firepower: the highest column <= fp; -1 below 0. */
int nhis_fat_column(int fp);

/* One firing unit as the fire procedure sees it. */
struct nhis_firer {
	const char *id; /* for the explanation */
	int firepower;  /* printed, current side */
	int range;      /* printed, current side */
	int distance;   /* hexes to the target */
	int charging;   /* firing while using Charge movement */
	int infantry;   /* squad, leader, MG or mortar */
};

/* The fire procedure up to the die roll (NOTES §004 steps 1-5). */
struct nhis_fire_calc {
	/* in */
	const struct nhis_firer *firers;
	size_t n_firers;
	int night_visibility; /* 0 = day */
	int moving_target;    /* target moving (not crawling) or marked Move/Charge */
	int brush;            /* target hex is Brush: no moving-target bonus */
	int cover;            /* cover factor of the target hex */
	int cover_shift;      /* shift terrain not marked Move/Fire/Charge */
	int tank_target;      /* the target hex holds only tanks */
	/* out */
	int base;          /* sum of the units' firepower */
	int drm;           /* +2 moving, +3 adjacent, - cover */
	int final;         /* base + drm */
	int column;        /* column index of final, -1 below the table */
	int shifts;        /* columns moved left (0, 2 or 4) */
	int result_column; /* column after shifts; -1: off the table, no effect */
};

/* One unit's firepower toward the attack: halved (drop fractions) beyond printed range up
 * to double, -2 charging, -2 beyond night visibility (NHiS DRMs "Penalty is for each unit");
 * it may be below 0, and is summed as it is (NOTES §004 steps 1 and 4: the floor is the
 * attack's). NHIS_OUT_OF_RANGE beyond double range. */
#define NHIS_OUT_OF_RANGE (-1000)
int nhis_firer_fp(const struct nhis_firer *f, int night_visibility);
/* Fills the out fields of fc and appends the reckoning (for the die's purpose) to why
 * (may be NULL). */
void nhis_fire_compute(struct nhis_fire_calc *fc, struct buf *why);

/* The unit's current side. */
const struct nhis_values *nhis_values_of(const struct nhis_unit *u);
/* 1 if u is Unshakable: of a nationality in the option list (8.2); a tank also with option
 * tank-morale: unshakable. */
int nhis_unshakable(const struct nhis_ctx *x, const struct nhis_unit *u);
/* 1 if the unit is infantry for the tank shift: squad, leader, MG, mortar. */
int nhis_infantry(const struct nhis_unit *u);
/* The best leadership of a Prepared (not Shaken) leader of side in hex; 0 if none. */
int nhis_leadership_in(const struct nhis_state *s, int side, int hex);

/* Fires units (indices into s->units, all of one side, all in one hex, able to fire) at
 * target: the whole procedure, one 2d6 on the Fire Attack Table, then the result applied.
 * charging: the firers use Charge movement; label names the attack in the journal.
 * Returns the result (NHIS_NO_EFFECT also when nothing is in the target hex). */
enum nhis_result nhis_fire(struct nhis_ctx *x, const size_t *firers, size_t n, int target,
	int charging, const char *label);
/* Applies a result to side `side`'s units in hex (NHiS Hit / Damaged). flame: the attack
 * included a flamethrower (Banzai chargers then stop too). label names the attack. */
void nhis_apply_result(struct nhis_ctx *x, int hex, int side, enum nhis_result r, int flame,
	const char *label);
/* One morale check: 1d6 + hit <= morale + leadership. Returns 1 if passed. */
int nhis_morale_check(struct nhis_ctx *x, struct nhis_unit *u, int hit, int leadership,
	const char *label);
/* Rally Phase: every Shaken unit rolls 1d6 <= morale (+ leadership); leaders first. */
void nhis_rally_phase(struct nhis_ctx *x);

/* ---- orders and turns (orders.c, turn.c) ---- */

int nhis_orders_parse(void **out, const struct rules_campaign *c, const void *state, int turn,
	const char *player, const struct node *orders, const struct node *standing, struct diag *d);
void nhis_orders_free(void *orders);
/* rules.h result: how the game ended (result.c). */
void nhis_result(const struct rules_campaign *c, const void *state, struct buf *out);
/* Who won by the scenario's `victory:` (docs/rules/nhis.md "Victory"): each side scores
 * hex-points for every objective hex that holds its units and no enemy's at the end, and
 * unit-points for every enemy unit eliminated; the higher score wins, equal scores draw.
 * Returns 1, or 0 when the scenario states no victory. */
int nhis_victory(const struct rules_campaign *c, const void *state, const char **winner,
	struct buf *why);
/* rules.h orders_template: player's next order file (template.c). */
void nhis_orders_template(const struct rules_campaign *c, const void *state, int turn,
	const char *player, struct buf *out);
/* The side index of player, or -1. */
int nhis_side_of(const struct nhis_state *s, const char *player);
/* 1 if any unit of side other than `side` (alive) is in hex. */
int nhis_enemy_in(const struct nhis_state *s, int side, int hex);
/* Hexes from hex to the nearest live unit of the enemy of side; a large number if none. */
int nhis_enemy_distance(const struct nhis_state *s, int side, int hex);
/* Appends to out the units of both sides in a melee hex with the numbers the umpire rules
 * with (type, step, firepower, morale, leadership, Prepared or Shaken, Banzai). */
void nhis_melee_describe(const struct nhis_state *s, const struct nhis_options *o, int hex,
	struct buf *out);
/* Administrative Phase: journals every hex holding both sides' units as a melee awaiting the
 * umpire's ruling; returns how many. */
int nhis_melee_pending(struct nhis_ctx *x);
/* Carries out one impulse of side (Operations Phase). */
void nhis_impulse(struct nhis_ctx *x, int side, const char *player, const struct nhis_impulse *imp);

/* ---- the umpire's adjustments (adjust.c) ---- */

/* Checks the umpire's adjustments v[0..n) in file order against state as the earlier ones
 * leave it (state is not changed): only `remove` (a unit in play) and `status` `shaken`
 * (never for an Unshakable unit, NHiS 8.2) or `reduced`, each changing what the unit is.
 * Problems go to d at the adjustment's nodes. Returns 0 or -1. How the umpire applies a
 * melee's outcome (docs/rules/nhis.md "Melee"). */
int nhis_adjust_check(const struct rules_campaign *c, const void *state, const struct adjustment *v,
	size_t n, struct diag *d);
/* Applies one checked adjustment to state (eliminated, Shaken or Prepared, reduced or full)
 * and appends what it did to what. Returns 0, or -1 for an adjustment check refuses. */
int nhis_adjust_apply(const struct rules_campaign *c, void *state, const struct adjustment *a,
	struct buf *what);

extern const struct rule_system rules_nhis;

#endif
