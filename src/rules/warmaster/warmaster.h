/* warmaster.h — internal interface of the Warmaster rule system (Games Workshop 2000, the
 * fan quick-reference sheet with Warmaster Revolution lines): the tabletop in millimetres,
 * units as blocks of stands, brigades, characters, terrain and fortress structures, the
 * options, the parsed orders, and every table and mechanic exposed so the Check suites can
 * test each alone. Readings are in docs/rules/warmaster.md; the spec is the sheet ("Warmaster
 * Orders", "Warmaster Blunders", ...) with the readings of NOTES §003. */
#ifndef UMPIRE_WARMASTER_H
#define UMPIRE_WARMASTER_H

#include <stddef.h>
#include "rules/rules.h"
#include "rules/lib/table.h"

#define WM_MAX_SIDES 8          /* sides (players) */
#define WM_MAX_UNITS 200        /* units in a scenario */
#define WM_MAX_CHARACTERS 40    /* characters in a scenario */
#define WM_MAX_AREAS 64         /* terrain areas */
#define WM_MAX_POINTS 64        /* vertices of one area */
#define WM_MAX_STRUCTURES 64    /* walls, towers, gateways, buildings */
#define WM_MAX_STANDS 12        /* stands in one unit */
#define WM_MAX_ARMIES 8         /* army lists */
#define WM_MAX_PROFILES 40      /* entries of one army list */
#define WM_MAX_PATH 16          /* waypoints of one move */
#define WM_MAX_ENTRIES 64       /* entries in one order file */
#define WM_MAX_ORDERS 32        /* orders of one character */
#define WM_MAX_BRIGADE 4        /* units in a brigade (Warmaster Orders) */
#define WM_TABLE_MAX 100000     /* table sides, mm */
#define WM_MAX_ROUNDS 3         /* combat rounds of one engagement in one Combat phase */
#define WM_NEAR 200             /* mm: initiative, enemy-near penalty, home back (20 cm) */
#define WM_DISPLACE 300         /* mm: a displaced character joins a friend within 30 cm */
#define WM_ORDER_STEP 200       /* mm: -1 per full 20 cm (Warmaster Orders) */
#define WM_MAX_SPELLS 16        /* spells of one army list */
#define WM_MAX_EXCLUDE 8        /* list entries a spell does not work on */
#define WM_ANTI_MAGIC_RANGE 500 /* mm: a Runesmith anti-magics casters within 50 cm (WMR) */
#define WM_ANTI_MAGIC_SCORE 4   /* anti-magic works on a D6 of 4+ (WMR Dwarfs, Runesmith) */

enum wm_utype {
	WM_INFANTRY,
	WM_CAVALRY,
	WM_CHARIOT,
	WM_ARTILLERY,
	WM_MONSTER,
	WM_MACHINE,
	WM_FLYER,
	WM_WAGON,
	WM_SIEGE,
	WM_BOAT,
	WM_GALLEY,
	WM_SHIP,
	WM_UTYPE_COUNT
};
enum wm_formation { WM_LINE, WM_COLUMN, WM_IRREGULAR, WM_FORMATION_COUNT };
enum wm_role { WM_GENERAL, WM_HERO, WM_WIZARD, WM_ROLE_COUNT };
enum wm_akind { WM_DENSE, WM_DEFENDED, WM_FORTIFIED, WM_RIVER, WM_AKIND_COUNT };
enum wm_skind { WM_WALL, WM_TOWER, WM_GATEWAY, WM_BUILDING, WM_SKIND_COUNT };
/* Where a target stands (Warmaster Shooting: to hit 4+/5+/6+). */
enum wm_position { WM_OPEN, WM_POS_DEFENDED, WM_POS_FORTIFIED };
/* What a special unit is (its tables). */
enum wm_special {
	WM_PLAIN,
	WM_STEAM_TANK,
	WM_GIANT,
	WM_FLAME_CANNON,
	WM_DEATH_ROCKET,
	WM_SPECIAL_COUNT
};
enum wm_after { WM_PURSUE, WM_STAND, WM_FALL_BACK, WM_AFTER_COUNT };
enum wm_initiative { WM_INIT_NONE, WM_INIT_CHARGE, WM_INIT_EVADE, WM_INIT_COUNT };
/* What a spell does (WMR Magic; each army list's spells are data of these kinds). */
enum wm_spell_kind {
	WM_SPELL_ATTACKS,    /* shooting attacks on one enemy unit not in combat, no drive back */
	WM_SPELL_LINE,       /* shooting attacks on every unit under a line of its range */
	WM_SPELL_DRIVE_BACK, /* an enemy unit not in combat driven back D6 x step toward an edge */
	WM_SPELL_BONUS,      /* a friendly unit in combat: + bonus attacks per stand this turn */
	WM_SPELL_KIND_COUNT
};

extern const char *const wm_utype_names[];
extern const char *const wm_formation_names[];
extern const char *const wm_role_names[];
extern const char *const wm_akind_names[];
extern const char *const wm_skind_names[];
extern const char *const wm_special_names[];
extern const char *const wm_after_names[];
extern const char *const wm_initiative_names[];
extern const char *const wm_position_names[];
extern const char *const wm_spell_kind_names[];

/* Campaign options: the sheet is the default, Warmaster Revolution the alternative. */
struct wm_options {
	int blunder45_no_move; /* blunder-4-5: half-pace (0, sheet) | no-move (1, WMR) */
	int draw_up_to;        /* draw-fall-back: 3d6 (0, sheet) | up-to-3d6 (1, WMR 0-3D6) */
	int steam_tank_wmr;    /* steam-tank: sheet (0) | wmr (1, the Malfunction chart) */
	int giant_on_blunder;  /* giant-goes-wild: failed-order (0) | blunder (1) */
	int flame_wmr;         /* flame-cannon: sheet (0) | wmr (1, 2D6 with the Misfire chart) */
	int break_point;       /* victory: break-point (1), else none stated (0) */
};

struct wm_area {
	char *id;             /* owned */
	enum wm_akind kind;   /* dense, defended, fortified, river */
	struct table_pt *v;   /* owned vertices */
	size_t n;             /* >= 3 */
	struct table_pt flow; /* river: downstream direction; else 0,0 */
	int boiling_oil;      /* fortified: defenders may pour boiling oil */
};

struct wm_structure {
	char *id; /* owned */
	enum wm_skind kind;
	struct table_pt at; /* where it stands (for range and sight) */
	int damaged;        /* damaged but holds */
	int breaches;       /* times breached (a tower falls at 2) */
	int breached;       /* breached / destroyed */
};

struct wm_unit {
	char *id;   /* owned, unique */
	char *name; /* owned: the army-list entry, e.g. "Orc Warriors" */
	int side;   /* index into state->side */
	enum wm_utype type;
	enum wm_special special;
	int stands, max_stands; /* stands now / at the start */
	int attacks;            /* combat attacks per stand */
	int shoot;              /* shooting attacks per stand (0: none) */
	int range;              /* shooting range, mm (0: none) */
	int hits;               /* hits per stand */
	int armour;             /* save on a d6 of this or more; 0: none */
	int pace;               /* full pace, mm (the sheet's Moves) */
	int terror;             /* causes terror */
	int no_drive_back;      /* never driven back by shooting */
	int defended;           /* always counts as defended (Steam Tank) */
	int armour_piercing;    /* its shots count armour one worse (WMR handguns, Gyrocopter) */
	int slayer;    /* WMR Troll Slayers: charge on initiative, no terror, +1 v monsters,
				 * must pursue */
	int all_round; /* WMR 360-degree vision: sees and shoots out of any edge, not only the front */
	struct table_pt fl, fr; /* front edge, left and right corners */
	int stand_w, stand_d;   /* one stand's width and depth, mm */
	enum wm_formation formation;
	char *brigade;   /* owned; NULL: none */
	int damage;      /* hits carried that have not removed a stand */
	int penalty;     /* command penalty for the rest of the game (blunder 1) */
	int confused;    /* confused */
	int immobile;    /* immobilised for the rest of the game */
	int reduced;     /* Flame Cannon / Death Rocket: shoots D6 attacks from now on */
	int ship_damage; /* a vessel already damaged */
	int destroyed;   /* removed (kept so orders can name it) */
	int engaged;     /* index of the unit it is in combat with + 1; 0: none */
	/* this player turn only (never saved): */
	int charged;      /* 1 charged this turn; 2 its charge hit a flank or rear */
	int used_init;    /* used its initiative */
	int ordered;      /* orders received this turn (successive-order penalty) */
	int no_shoot;     /* cannot shoot this turn */
	int no_fight;     /* Giant 1: will neither move nor fight */
	int double_first; /* Giant 6: twice the attacks in the first round */
	int stand_ground; /* Giant 2: if victorious stands its ground */
	int walked;       /* confused by a Giant walking through (until end of command) */
	int shot_hits;    /* hits from shooting this phase (for drive backs) */
	int shot_by;      /* index + 1 of the unit that shot it first this phase; -1 a spell */
	struct table_pt shot_from; /* shot_by -1: where the spell came from (drive backs) */
	unsigned spelled;          /* bit per spell of the caster's list: affected this turn */
	int spell_bonus;           /* attacks per stand added by a spell this turn */
	int overload;              /* WMR Steam Overload: twice the shooting attacks */
	int charge_shot; /* hits struck before the combat that count for it in round 1: at its
			   * charger, or by a spell on its enemy in combat */
	int burst;       /* burst through by an evader: confused past this Command phase */
};

struct wm_character {
	char *id, *name; /* owned */
	int side;
	enum wm_role role;
	int command;        /* command value */
	int range;          /* order range, mm; 0: the whole table */
	int pace;           /* mm (60 cm; 100 cm on a flying mount) */
	int attacks;        /* Attack bonus to one stand of a unit it has joined (WMR) */
	struct table_pt at; /* where the stand is (a joined character: the unit's centre) */
	int with;           /* index + 1 of the unit it has joined; 0: none */
	int slain;          /* slain with the unit it had joined */
	int anti_magic;     /* may anti-magic enemy spells (a Dwarf Runesmith) */
};

/* One entry of an army list (Warmaster Revolution stat lines, carried as data). */
struct wm_profile {
	char *name;         /* owned: "Warriors", "General" */
	int character;      /* 1: a character entry (role, command) */
	enum wm_utype type; /* units */
	enum wm_special special;
	int attacks, shoot, range, hits, armour, stands, pace;
	int terror, no_drive_back, defended;
	int armour_piercing, slayer; /* army special rules (WMR) */
	int all_round;        /* WMR 360-degree vision (Wolf Riders, Gyrocopter, Steam Tank) */
	int stand_w, stand_d; /* mm */
	enum wm_role role;    /* characters */
	int command;          /* characters */
	int order_range;      /* characters: mm, 0 the whole table */
	int anti_magic;       /* characters: may anti-magic enemy spells */
};

/* One spell of an army list (WMR army lists, carried as data). */
struct wm_spell {
	char *name; /* owned: "Foot of Gork" */
	enum wm_spell_kind kind;
	int cast;       /* D6 score to cast: 4, 5 or 6 */
	int range;      /* mm */
	int attacks;    /* attacks and line: shooting attacks per unit */
	int step;       /* drive-back: mm per pip of the D6 */
	int bonus;      /* bonus: attacks per stand */
	char **exclude; /* owned: list entries it does not work on (bonus) */
	size_t n_exclude;
};

struct wm_army {
	char *name;           /* owned: "Dwarfs" */
	char *source;         /* owned: where the numbers come from */
	struct wm_profile *v; /* owned */
	size_t n;
	struct wm_spell *spells; /* owned; the army's spells (none: no wizards' magic) */
	size_t n_spells;
};

struct wm_side {
	char *player;      /* owned; a campaign player id */
	int army;          /* index into state->armies */
	enum wm_after win; /* after winning a combat */
	int draw_stand;    /* after a draw, defended/fortified units stand */
};

struct wm_state {
	int width, depth;     /* table, mm */
	struct table_pt wind; /* direction the wind blows to; 0,0: calm */
	int turns;            /* last player turn; 0: open-ended */
	struct wm_side side[WM_MAX_SIDES];
	size_t n_sides;
	struct wm_army *armies;
	size_t n_armies;
	struct wm_area *areas;
	size_t n_areas;
	struct wm_structure *structures;
	size_t n_structures;
	struct wm_unit *units;
	size_t n_units;
	struct wm_character *chars;
	size_t n_chars;
};

/* One order of a character. */
struct wm_order {
	int index;                         /* 1-based entry in `orders` (for void events) */
	int unit;                          /* unit index, or -1 when a brigade is ordered */
	char *brigade;                     /* owned; the brigade ordered */
	struct table_pt path[WM_MAX_PATH]; /* move: waypoints of the front centre */
	size_t n_path;
	int charge;    /* unit index + 1 to charge; 0: none */
	int formation; /* enum wm_formation + 1; 0: keep */
};

/* One entry of an order file: a character's orders, or a unit's shot. */
struct wm_entry {
	int index;               /* 1-based position in `orders` */
	int character;           /* character index, or -1 for a shot */
	struct wm_order *orders; /* owned */
	size_t n_orders;
	int has_move; /* the character moves after its orders */
	struct table_pt move_to;
	int join;           /* unit index + 1 the character joins after its orders; 0: none */
	int shooter;        /* shot: unit index */
	int target;         /* shot or spell: unit index, or -1 */
	int structure;      /* shot: structure index, or -1 */
	int caster;         /* spell: the wizard's character index; -1 not a spell */
	int spell;          /* spell: index into the caster's army's spells */
	struct table_pt at; /* line spell: the point the line runs toward */
};

struct wm_orders {
	struct wm_entry *v; /* owned */
	size_t n;
	unsigned char initiative[WM_MAX_UNITS]; /* enum wm_initiative per unit */
	int has_standing;
	enum wm_after win;
	int draw_stand;
	int hold; /* rules.h hold_orders: no order, and the side stands after a combat won or
	           * drawn this turn (docs/rules/warmaster.md "Hold orders") */
};

/* Everything a mechanic needs. */
struct wm_ctx {
	struct wm_state *s;
	const struct wm_options *o;
	struct dice *dice;
	struct events *ev;
	const char *phase; /* "command", "shooting", "combat", "end" */
	int active;        /* the side whose turn it is */
};

/* ---- state (state.c) ---- */
/* Fills o with the sheet's readings (every option at its first value). */
void wm_options_default(struct wm_options *o);
/* Parses the campaign options (NULL: defaults) into *out (free with wm_options_free);
 * 0, or -1 with every problem in d. */
int wm_options_parse(void **out, const struct node *opts, struct diag *d);
/* Every option, defaults included (caller frees). */
struct node *wm_options_emit(const void *opts);
void wm_options_free(void *opts);
/* Who won by the scenario's `victory: break-point` (docs/rules/warmaster.md "Victory"): a
 * side that lost half its units (rounding up) or its General has broken; the one side left
 * unbroken wins, otherwise a draw. Returns 1, or 0 when the scenario states no victory. */
int wm_victory(const struct rules_campaign *c, const void *state, const char **winner,
	struct buf *why);
/* Parses `game:` (table, wind, turns, armies, sides, terrain, structures, characters, units)
 * into *out (free with wm_state_free), the sides being c's players in order; 0, or -1 with
 * every problem reported at its node in d. */
int wm_state_parse(void **out, const struct rules_campaign *c, const struct node *game,
	struct diag *d);
/* The state in canonical order (caller frees); wm_state_parse reads it back unchanged. */
struct node *wm_state_emit(const struct rules_campaign *c, const void *state);
enum { WM_VIEW_ALL = -2, WM_VIEW_PUBLIC = -1 };
/* The state as side may know it (caller frees): every side's standing choices (`win`,
 * `draw`) with WM_VIEW_ALL, only side's own with a side index, none with WM_VIEW_PUBLIC (the
 * sealed campaign's public state.yaml). Everything else on the table is public. */
struct node *wm_state_emit_view(const struct wm_state *s, int side);
void wm_state_free(void *state);
/* Index of the unit / character / structure called id, or -1. */
int wm_unit_find(const struct wm_state *s, const char *id);
int wm_char_find(const struct wm_state *s, const char *id);
int wm_structure_find(const struct wm_state *s, const char *id);
/* Why u can neither take an order nor shoot ("destroyed", "in combat", "confused"), or NULL. */
const char *wm_unit_unready(const struct wm_unit *u);
/* rules.h result: how the game ended (result.c). */
void wm_result(const struct rules_campaign *c, const void *state, struct buf *out);
/* rules.h orders_template: player's next order file (template.c). */
void wm_orders_template(const struct rules_campaign *c, const void *state, int turn,
	const char *player, struct buf *out);
/* Index of player's side, or -1. */
int wm_side_of(const struct wm_state *s, const char *player);
/* A point [x, y] in mm on the table into *out. */
int wm_want_pt(const struct wm_state *s, const struct node *n, const char *what,
	struct table_pt *out, struct diag *d);
/* The full pace of a unit type, mm (the sheet's Moves). */
int wm_type_pace(enum wm_utype t);

/* ---- the SVG map (map.c) ---- */
/* The SVG map of s after the turn m describes (rules.h draw_map): every view the same. */
void wm_draw_map(const struct wm_state *s, const struct rules_map *m, struct buf *out);

/* ---- geometry (geom.c) ---- */
/* The unit's footprint from its front edge and formation (depth: one stand in line or
 * irregular, all stands in column). */
struct table_rect wm_rect(const struct wm_unit *u);
/* The middle of the front edge (rounded down). */
struct table_pt wm_front_centre(const struct wm_unit *u);
/* The footprint's centre (rounded down). */
struct table_pt wm_centre(const struct wm_unit *u);
/* Distance between two units' footprints, whole mm rounded down. */
int64_t wm_unit_dist(const struct wm_unit *a, const struct wm_unit *b);
/* Distance from a character to a unit's footprint, whole mm rounded down. */
int64_t wm_char_dist(const struct wm_character *c, const struct wm_unit *u);
/* Where u stands: fortified/defended when its centre is in such an area (or it always
 * counts as defended), else open. */
enum wm_position wm_position_of(const struct wm_state *s, const struct wm_unit *u);
/* 1 if u's centre is in a dense area. */
int wm_in_dense(const struct wm_state *s, const struct wm_unit *u);
/* 1 if the sight line between two points is not blocked by a dense area. */
int wm_visible(const struct wm_state *s, struct table_pt a, struct table_pt b);
/* 1 if u can see r for shooting (WMR Line of sight: some part of r strictly in front of the
 * line through u's front edge, exact in integer mm; a target only touching that line is not
 * seen), or u has all-round vision (WMR 360-degree vision). */
int wm_in_arc(const struct wm_unit *u, const struct table_rect *r);
/* The same for a point p (a structure). */
int wm_in_arc_pt(const struct wm_unit *u, struct table_pt p);
/* 1 if an enemy of u's side is within 20 cm of u. */
int wm_enemy_near(const struct wm_state *s, const struct wm_unit *u);
/* The closest enemy unit to u (visible only if visible), or -1. */
int wm_closest_enemy(const struct wm_state *s, const struct wm_unit *u, int visible);
/* Moves u by vector v (both front corners). */
void wm_translate(struct wm_unit *u, struct table_pt v);
/* The vector of length len (mm, rounded) in the direction of d (d not zero). */
struct table_pt wm_scale(struct table_pt d, int64_t len);
/* Moves u straight away from point from by len mm (toward it when len < 0). */
void wm_move_away(struct wm_unit *u, struct table_pt from, int64_t len);
/* Changes u's formation keeping its front centre and facing. */
void wm_set_formation(struct wm_unit *u, enum wm_formation f);
/* The pace of u for a move from a to b, mm: type pace, half in irregular formation, vessels
 * +5/-5 cm down/upstream in a river, ships +10 cm moving with the wind. */
int wm_move_pace(const struct wm_state *s, const struct wm_unit *u, struct table_pt a,
	struct table_pt b);

/* ---- tables (tables.c): each a pure function of its dice ---- */

/* Warmaster Orders: the penalties of an order from c to u (or to the worst unit of a
 * brigade): -1 per full 20 cm, -1 per earlier order this turn, -1 enemy within 20 cm, -1 in
 * dense terrain, -1 per stand lost, plus the unit's standing penalty. */
struct wm_penalty {
	int distance, successive, enemy, dense, casualties, standing;
	int total;
};
void wm_order_penalty(const struct wm_state *s, const struct wm_character *c,
	const struct wm_unit *u, struct wm_penalty *out);
/* Order test: 1 passed (2d6 <= command - penalty and not 12), 0 failed; *blunder 1 on 12. */
int wm_order_test(int roll, int command, int penalty, int *blunder);
/* To hit on a d6 for a target's position: 4, 5 or 6 (Warmaster Shooting). */
int wm_to_hit(enum wm_position p);
/* Dice of drive back for hits at a target's position: hits, -1 defended, -2 fortified;
 * never below 0. */
int wm_drive_dice(int hits, enum wm_position p);
/* Blunder (D6) kinds. */
enum wm_blunder { WM_BL_PENALTY, WM_BL_HALT_OR_BACK, WM_BL_HALF_PACE, WM_BL_NO_MOVE, WM_BL_RUSH };
enum wm_blunder wm_blunder(int d6, const struct wm_options *o);
/* Steam Tank Blunders (sheet) / Malfunction chart (WMR). */
enum wm_steam {
	WM_ST_IMMOBILE,
	WM_ST_NO_SHOOT,
	WM_ST_UNAFFECTED,
	WM_ST_DESTROYED,
	WM_ST_BROKEN,
	WM_ST_STUCK,
	WM_ST_SLAIN,
	WM_ST_HALT,
	WM_ST_OVERLOAD
};
enum wm_steam wm_steam_tank(int d6, const struct wm_options *o);
/* Flame Cannon Attacks (D6), as printed. */
struct wm_flame {
	int hits;      /* hits caused outright */
	int dice;      /* extra attacks: this many D6 */
	int destroyed; /* the cannon is destroyed */
	int reduced;   /* shoots with one die in future */
	int no_shoot;  /* does not shoot this turn */
};
extern const struct wm_flame wm_flame_table[7]; /* [1..6] */
/* WMR Flame Cannon (option flame-cannon: wmr): 2D6 attacks, but a double rolls on the
 * Misfire chart, indexed by the double's pip. */
struct wm_misfire {
	int attacks;   /* fixed attacks */
	int dice;      /* plus this many D6 attacks */
	int destroyed; /* destroyed after shooting */
	int reduced;   /* 1D6 attacks from now on */
};
extern const struct wm_misfire wm_flame_misfire[7]; /* [1..6]; 4: does not shoot */
/* Death Rocket Attack (D6). */
struct wm_rocket {
	int destroyed_before; /* destroyed: no attack */
	int extra_dice;       /* D6 added to the attack */
	int destroyed_after;  /* destroyed after the attack */
	int no_shoot;         /* does not shoot this turn */
	int reduced;          /* from now on D6 attacks */
};
extern const struct wm_rocket wm_rocket_table[7]; /* [1..6] */
/* Damage To Fortresses & Buildings & Ships: the to-hit (6 fortress/ship, 4 building/boat),
 * and the effect of the highest die plus modifiers: 0 nothing, 1 damaged, 2 breached. */
int wm_damage_to_hit(int fortress_or_ship);
int wm_damage_effect(int score);
/* Boiling Oil (D6): attacks suffered (d3 is the D3 already rolled, used on 5-6). */
int wm_boiling_oil(int d6, int d3);
/* Combat modifiers per stand (Warmaster Combat). */
struct wm_cmods {
	int charging_open;  /* charged an enemy in the open */
	int monster_charge; /* monster or chariot charging an enemy in the open */
	int pursuit;        /* pursuit attack */
	int pursuit_cm;     /* retreat distance pursued, cm: +1 per full 3 cm */
	int terrified;      /* fighting a terrifying enemy (and not terrifying) */
	int flank;          /* fighting an enemy to its side or rear */
	int confused;       /* confused */
	int slayer;         /* Troll Slayers fighting a monster: +1 (WMR Dwarfs) */
};
/* The modifier per stand for m. */
int wm_combat_mod(const struct wm_cmods *m);

/* ---- mechanics (command.c, shoot.c, combat.c) ---- */
/* Rolls a unit's shooting-style attacks at target: to hit by position, armour saves; adds the
 * hits to target (stands removed). Returns hits after saves. */
int wm_attack(struct wm_ctx *x, struct wm_unit *target, int attacks, const char *label);
/* wm_attack with the target's armour counted `worse` worse (1: armour piercing, WMR Dwarfs
 * Handgunners; a save of 7+ is none). */
int wm_attack_ap(struct wm_ctx *x, struct wm_unit *target, int attacks, const char *label,
	int worse);
/* The armour save needed against hits at armour piercing worse: armour + worse, 0 (no save)
 * when there is none or it would need more than 6. */
int wm_save_needed(int armour, int worse);
/* Applies hits to u: stands removed per `hits`; destroyed at 0 stands. Returns stands lost. */
int wm_apply_hits(struct wm_ctx *x, struct wm_unit *u, int hits);
/* Charges u into contact with target (sets charged and engaged). */
void wm_charge(struct wm_ctx *x, struct wm_unit *u, struct wm_unit *target);
/* The Command phase of side x->active. */
void wm_command_phase(struct wm_ctx *x, const struct wm_orders *o);
/* The Shooting phase: the shots of o, then drive backs. */
void wm_shooting_phase(struct wm_ctx *x, const struct wm_orders *o);
/* One shot of unit u at a unit or (st not NULL) a structure; target NULL then. Artillery at
 * a structure or a vessel rolls on Damage To Fortresses & Buildings & Ships. */
void wm_shoot(struct wm_ctx *x, struct wm_unit *u, struct wm_unit *target, struct wm_structure *st);
/* Drive back of a unit after shooting (Warmaster Drive Backs). */
void wm_drive_back(struct wm_ctx *x, struct wm_unit *u);
/* The Combat phase: every engagement fought. */
void wm_combat_phase(struct wm_ctx *x);
/* The End phase: leftover hits and this turn's marks cleared. */
void wm_end_phase(struct wm_ctx *x);
/* Giant Goes Wild (D6) for giant u. */
void wm_giant_wild(struct wm_ctx *x, struct wm_unit *u);
/* Shooting at a charging enemy (WMR Shooting): target t, just charged by u, shoots at it with
 * its ordinary shooting attacks; no drive back; the hits count for t in the first combat round
 * (t->charge_shot). Nothing when t cannot shoot (no shooting attacks, confused, destroyed,
 * barred from shooting this turn), or when u's footprint, before (*before) and after its
 * straight charge move, lies wholly behind t's front edge line (WMR Q&A Line of Sight; an
 * event says so) unless t sees all round. */
void wm_shoot_at_charger(struct wm_ctx *x, struct wm_unit *t, struct wm_unit *u,
	const struct table_rect *before);
/* Characters with units (WMR Generals, Wizards & Heroes, Joining a unit): a lone character
 * an enemy unit stands on is displaced and joins the nearest friendly unit within 30 cm, or
 * is slain; a joined character stands at its unit's centre and moves with it; one whose
 * unit is destroyed is slain. Called at the end of each phase. */
void wm_characters_follow(struct wm_ctx *x);
/* The Attack bonus the characters with u add to one of its stands (the highest; 0: none). */
int wm_character_bonus(const struct wm_state *s, const struct wm_unit *u);
/* An ordered move cut short (WMR Movement: no stand moves through another unit, friend or
 * foe): units v (n of them, a unit or a brigade moving by one translation; v[0]'s front centre
 * follows path) go budget mm along the path, stopping where one of them would first overlap
 * another unit's footprint (touching is allowed). Units they overlap already are ignored;
 * flyers fly over. passed (not NULL, WM_MAX_UNITS flags; an evade's burst through, WMR
 * Movement): friendly units not in combat are passed through and flagged there, unless the
 * move would end on one, when it stops short of it as any move. *blocker: the index of the
 * unit that stopped them, or -1. Returns the translation, whole mm. */
struct table_pt wm_move_blocked(const struct wm_state *s, const int *v, size_t n,
	const struct table_pt *path, size_t n_path, int64_t budget, unsigned char *passed,
	int *blocker);
/* Magic (WMR Magic, magic.c). The cast: a D6 of need or more, 1 always failing and 6 always
 * working: 1 works, 0 fails. */
int wm_cast_test(int d6, int need);
/* Anti-magic (WMR Dwarfs, Runesmith): 1 dispelled on d6 >= 4. */
int wm_anti_magic_test(int d6);
/* Casts the spell of entry e (caster, spell, target or point) in the Shooting phase: the cast
 * roll, one anti-magic try by an enemy Runesmith within 50 cm, the effect. A void event when
 * the caster is slain or the target not eligible (destroyed, out of range, in or not in
 * combat as the spell wants, already affected by this spell this turn). */
void wm_cast(struct wm_ctx *x, const struct wm_entry *e);
/* The unit direction toward the table edge nearest to c. */
struct table_pt wm_to_edge(const struct wm_state *s, struct table_pt c);
/* Marks u destroyed if its footprint has left the table (an event): a corner past an edge
 * after a move (docs/rules/warmaster.md "Leaving the table"); the lost unit is left at the
 * edge it crossed (moved straight back in by the least distance on each axis). */
void wm_off_table(struct wm_ctx *x, struct wm_unit *u);
/* Puts u back on the table the same way, not lost: a charge, pursuit or advance that would
 * place part of its footprint past an edge (closing with an enemy never leaves the table). */
void wm_keep_on_table(const struct wm_state *s, struct wm_unit *u);
/* Home back of a flyer more than 20 cm from every friendly character. */
void wm_home_back(struct wm_ctx *x, struct wm_unit *u);

/* ---- orders (orders.c) ---- */
/* Checks player's order file (`orders`, `standing` may be NULL) against the state and parses
 * it into *out (free with wm_orders_free); 0, or -1 with every problem in d. */
int wm_orders_parse(void **out, const struct rules_campaign *c, const void *state, int turn,
	const char *player, const struct node *orders, const struct node *standing, struct diag *d);
void wm_orders_free(void *orders);
/* The side due in player turn t (1-based): sides alternate in campaign order. */
int wm_active_side(const struct wm_state *s, int turn);

#endif
